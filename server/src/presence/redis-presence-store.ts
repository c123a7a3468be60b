import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { closeRedis } from '../realtime/close-redis.js';
import type { PresenceChange, PresenceStore, UserPresenceState } from './presence-store.js';

/**
 * Writes (or deletes, when ARGV[4] is empty) this instance's entry of a user, and returns the user's
 * entries on every instance whose heartbeat is recent just before and just after, atomically.
 * KEYS: instances sorted set. ARGV: hash key prefix, this instance id, user id, state JSON or '',
 * oldest live heartbeat (ms).
 */
const SAVE_AND_READ = `
local live = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[5], '+inf')
local function read()
  local states = {}
  for _, instance in ipairs(live) do
    local value = redis.call('HGET', ARGV[1] .. instance, ARGV[3])
    if value then table.insert(states, value) end
  end
  return states
end
local before = read()
local own = ARGV[1] .. ARGV[2]
if ARGV[4] == '' then
  redis.call('HDEL', own, ARGV[3])
else
  redis.call('HSET', own, ARGV[3], ARGV[4])
end
return { before, read() }
`;

/** A beat this recent vouches for an instance while its lifeline resubscribes. */
const CRASH_GRACE_MS = 1_000;

/**
 * Presence across instances. Each instance keeps a hash of the users it holds and beats a heartbeat
 * in a sorted set; readers only trust instances that beat within `liveMs`. The hash outlives the
 * heartbeat so that a surviving instance can reap it and tell channels those users went offline.
 *
 * A crashed process is found faster than the heartbeat can: each instance holds a Redis connection
 * subscribed to its own "lifeline" channel, and the kernel closes that connection the moment the
 * process dies. An instance whose lifeline has no subscriber and that missed a beat is dead (a
 * frozen or partitioned one still ages out by its heartbeat). An instance reaped by mistake (its
 * lifeline dropped while Redis restarted) notices on its next beat and writes its users back.
 */
export class RedisPresenceStore implements PresenceStore {
  readonly instanceId = randomUUID();
  private readonly redis: Redis;
  private readonly lifeline: Redis;
  private readonly timer: NodeJS.Timeout;
  private beats = 0;
  private readonly restoredListeners: (() => void)[] = [];

  private readonly instances: string;
  private readonly hashPrefix: string;
  private readonly hashKey: (instanceId: string) => string;
  private readonly lifelineChannel: (instanceId: string) => string;

  constructor(
    url: string,
    namespace: string,
    onError: (error: unknown) => void,
    private readonly liveMs = 30_000,
    heartbeatMs = 2_000,
  ) {
    this.instances = `${namespace}instances`;
    this.hashPrefix = `${namespace}presence:`;
    this.hashKey = (instanceId) => this.hashPrefix + instanceId;
    this.lifelineChannel = (instanceId) => `${namespace}lifeline:${instanceId}`;
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', onError);
    this.lifeline = new Redis(url, { maxRetriesPerRequest: 3 });
    this.lifeline.on('error', onError);
    // The first beat waits for the lifeline, so nobody sees this instance without one.
    const subscribed = this.lifeline.subscribe(this.lifelineChannel(this.instanceId)).catch(onError);
    const beat = () => {
      this.heartbeat().catch(onError);
    };
    void subscribed.then(beat);
    this.timer = setInterval(beat, heartbeatMs);
    this.timer.unref();
  }

  put(userId: string, state: UserPresenceState): Promise<PresenceChange> {
    return this.saveAndRead(userId, JSON.stringify(state));
  }

  remove(userId: string): Promise<PresenceChange> {
    return this.saveAndRead(userId, '');
  }

  private async saveAndRead(userId: string, state: string): Promise<PresenceChange> {
    const oldestLive = Date.now() - this.liveMs;
    const args = [this.hashPrefix, this.instanceId, userId, state, oldestLive];
    const [before, after] = (await this.redis.eval(SAVE_AND_READ, 1, this.instances, ...args)) as [
      string[],
      string[],
    ];
    const parse = (values: string[]) => values.map((value) => JSON.parse(value) as UserPresenceState);
    return { before: parse(before), after: parse(after) };
  }

  async read(userIds: readonly string[]): Promise<Map<string, UserPresenceState[]>> {
    const result = new Map<string, UserPresenceState[]>();
    if (userIds.length === 0) return result;
    const live = await this.redis.zrangebyscore(this.instances, Date.now() - this.liveMs, '+inf');
    if (live.length === 0) return result;
    const pipeline = this.redis.pipeline();
    for (const instance of live) pipeline.hmget(this.hashKey(instance), ...userIds);
    const replies = (await pipeline.exec()) ?? [];
    for (const [error, values] of replies) {
      if (error) throw error;
      (values as (string | null)[]).forEach((value, index) => {
        if (value === null) return;
        const id = userIds[index]!;
        const list = result.get(id) ?? [];
        list.push(JSON.parse(value) as UserPresenceState);
        result.set(id, list);
      });
    }
    return result;
  }

  async reapDeadInstances(): Promise<string[]> {
    const now = Date.now();
    const expired = await this.redis.zrangebyscore(this.instances, '-inf', now - this.liveMs);
    const dead = new Set([...expired, ...(await this.crashed(now))]);
    const users: string[] = [];
    for (const instance of dead) {
      // Whoever removes the entry first owns the clean-up.
      if ((await this.redis.zrem(this.instances, instance)) !== 1) continue;
      users.push(...(await this.redis.hkeys(this.hashKey(instance))));
      await this.redis.del(this.hashKey(instance));
    }
    return users;
  }

  /** Called after this instance was reaped while alive and has written its users back. */
  onRestored(listener: () => void): void {
    this.restoredListeners.push(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // With Redis unreachable the survivors reap this instance's entries once its heartbeat stops.
    if (this.redis.status === 'ready') {
      await this.redis.zrem(this.instances, this.instanceId).catch(() => undefined);
      await this.redis.del(this.hashKey(this.instanceId)).catch(() => undefined);
    }
    await closeRedis(this.lifeline);
    await closeRedis(this.redis);
  }

  /** Other instances whose lifeline nobody holds and whose last beat is older than one interval. */
  private async crashed(now: number): Promise<string[]> {
    const entries = await this.redis.zrange(this.instances, '0', '-1', 'WITHSCORES');
    const candidates: string[] = [];
    for (let i = 0; i < entries.length; i += 2) {
      const instance = entries[i]!;
      const lastBeat = Number(entries[i + 1]);
      // A beat within the last second vouches for the instance while its lifeline resubscribes.
      if (instance !== this.instanceId && now - lastBeat > CRASH_GRACE_MS) candidates.push(instance);
    }
    if (candidates.length === 0) return [];
    const counts = (await this.redis.call(
      'PUBSUB',
      'NUMSUB',
      ...candidates.map((instance) => this.lifelineChannel(instance)),
    )) as (string | number)[];
    return candidates.filter((_instance, index) => Number(counts[index * 2 + 1]) === 0);
  }

  private async heartbeat(): Promise<void> {
    const replies = await this.redis
      .multi()
      .zadd(this.instances, Date.now(), this.instanceId)
      .pexpire(this.hashKey(this.instanceId), this.liveMs * 4)
      .exec();
    const added = replies?.[0]?.[1];
    // ZADD adds only when our entry is missing: after the first beat, that means we were reaped.
    if (this.beats++ > 0 && added === 1) for (const listener of this.restoredListeners) listener();
  }
}
