import { Redis } from 'ioredis';
import { closeRedis } from '../realtime/close-redis.js';

/**
 * Which users may be in a live (ringing or active) call, shared by every instance (decision 053):
 * a user's mark is raised before a call of theirs is recorded and lowered after it ended, so a
 * user without a mark has no live call and a socket opening or closing need not read the calls
 * table for them. A mark is a count (one per call); a crash between a call's end and the lowering
 * leaves one too many, which only costs that read again.
 */
export interface LiveCallMarks {
  /** Before a call between these users is recorded. */
  raise(userIds: readonly string[]): Promise<void>;
  /** After that call ended (or was never recorded). Never goes below nothing. */
  lower(userIds: readonly string[]): Promise<void>;
  /** False only when the user has no live call. */
  has(userId: string): Promise<boolean>;
  /**
   * Marks the parties of the calls live in the database when the marks start out empty (this
   * process's memory; a Redis without them), so calls recorded before are not forgotten.
   */
  seed(liveCalls: () => Promise<{ callerId: string; receiverId: string }[]>): Promise<void>;
  close(): Promise<void>;
}

export class MemoryLiveCallMarks implements LiveCallMarks {
  private readonly counts = new Map<string, number>();

  async raise(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }

  async lower(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) {
      const count = (this.counts.get(id) ?? 0) - 1;
      if (count > 0) this.counts.set(id, count);
      else this.counts.delete(id);
    }
  }

  async has(userId: string): Promise<boolean> {
    return this.counts.has(userId);
  }

  async seed(liveCalls: () => Promise<{ callerId: string; receiverId: string }[]>): Promise<void> {
    for (const call of await liveCalls()) await this.raise([call.callerId, call.receiverId]);
  }

  async close(): Promise<void> {}
}

/** Decrements the count, deleting it at zero: a lowering never leaves a negative count behind. */
const LOWER = `
local n = tonumber(redis.call('get', KEYS[1]) or '0')
if n > 1 then return redis.call('decr', KEYS[1]) end
redis.call('del', KEYS[1])
return 0`;

export class RedisLiveCallMarks implements LiveCallMarks {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly namespace: string,
    onError: (error: unknown) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', onError);
  }

  private key(userId: string): string {
    return `${this.namespace}live-calls:${userId}`;
  }

  async raise(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) await this.redis.incr(this.key(id));
  }

  async lower(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) await this.redis.eval(LOWER, 1, this.key(id));
  }

  async has(userId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(userId))) === 1;
  }

  /** The first instance to start on this Redis (or after it lost its data) marks them. */
  async seed(liveCalls: () => Promise<{ callerId: string; receiverId: string }[]>): Promise<void> {
    const first = await this.redis.set(`${this.namespace}live-calls-seeded`, '1', 'NX');
    if (first !== 'OK') return;
    for (const call of await liveCalls()) await this.raise([call.callerId, call.receiverId]);
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}
