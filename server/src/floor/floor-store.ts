import { Redis } from 'ioredis';
import { closeRedis } from '../realtime/close-redis.js';

/** One hold of a walkie-talkie channel's floor. `grantId` tells two holds by the same user apart. */
export interface FloorGrant {
  holderId: string;
  grantId: string;
  /** Epoch milliseconds: the floor is free again at this moment at the latest. */
  expiresAt: number;
}

/**
 * The store keeps a hold this long past its `expiresAt`: the instance that granted it ends it on
 * time and tells everyone; the store's own expiry is the fallback for an instance that died.
 */
export const FLOOR_EXPIRY_GRACE_MS = 2_000;

export type FloorAcquired =
  { granted: true; previous: FloorGrant | null } | { granted: false; holder: FloorGrant };

/**
 * Who holds each walkie-talkie channel's floor: the one truth every instance asks (in memory on one
 * instance, Redis across several). A hold expires by itself shortly after `expiresAt`, so a holder
 * whose instance died never keeps the floor much past the channel's maximum transmission time.
 */
export interface FloorStore {
  /**
   * Takes the floor for `grant` unless another user holds it. `preempt` (a channel admin cutting in)
   * takes it anyway. The same user pressing again (another device) takes it over.
   */
  acquire(channelId: number, grant: FloorGrant, preempt: boolean): Promise<FloorAcquired>;
  /** Ends the hold `grantId` if it is still the current one; answers the ended hold. */
  release(channelId: number, grantId: string): Promise<FloorGrant | null>;
  /** Frees the floor whoever holds it (talk mode changed, channel deleted); answers the ended hold. */
  clear(channelId: number): Promise<FloorGrant | null>;
  current(channelId: number): Promise<FloorGrant | null>;
  close(): Promise<void>;
}

export class MemoryFloorStore implements FloorStore {
  private readonly grants = new Map<number, FloorGrant>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(channelId: number, grant: FloorGrant, preempt: boolean): Promise<FloorAcquired> {
    const holder = await this.current(channelId);
    if (holder && holder.holderId !== grant.holderId && !preempt) return { granted: false, holder };
    this.grants.set(channelId, grant);
    return { granted: true, previous: holder };
  }

  async release(channelId: number, grantId: string): Promise<FloorGrant | null> {
    const holder = await this.current(channelId);
    if (!holder || holder.grantId !== grantId) return null;
    this.grants.delete(channelId);
    return holder;
  }

  async clear(channelId: number): Promise<FloorGrant | null> {
    const holder = await this.current(channelId);
    this.grants.delete(channelId);
    return holder;
  }

  async current(channelId: number): Promise<FloorGrant | null> {
    const grant = this.grants.get(channelId);
    if (grant && grant.expiresAt + FLOOR_EXPIRY_GRACE_MS <= this.now()) {
      this.grants.delete(channelId);
      return null;
    }
    return grant ?? null;
  }

  async close(): Promise<void> {
    this.grants.clear();
  }
}

/** KEYS[1] the channel's floor key. ARGV: grant JSON, holder id, ttl ms, '1' to preempt. */
const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
if current and ARGV[4] ~= '1' and cjson.decode(current).holderId ~= ARGV[2] then
  return {0, current}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return {1, current or ''}
`;

/** KEYS[1] the channel's floor key. ARGV[1] the grant id that must still hold it. */
const RELEASE = `
local current = redis.call('GET', KEYS[1])
if not current or cjson.decode(current).grantId ~= ARGV[1] then return '' end
redis.call('DEL', KEYS[1])
return current
`;

const CLEAR = `
local current = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
return current or ''
`;

const parse = (value: string | null): FloorGrant | null =>
  value ? (JSON.parse(value) as FloorGrant) : null;

/** The floor across instances: one key per channel, set atomically, expiring with the hold. */
export class RedisFloorStore implements FloorStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly namespace: string,
    onError: (error: unknown) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', onError);
  }

  private key(channelId: number): string {
    return `${this.namespace}floor:${channelId}`;
  }

  async acquire(channelId: number, grant: FloorGrant, preempt: boolean): Promise<FloorAcquired> {
    const ttl = Math.max(1, grant.expiresAt + FLOOR_EXPIRY_GRACE_MS - Date.now());
    const [granted, previous] = (await this.redis.eval(
      ACQUIRE,
      1,
      this.key(channelId),
      JSON.stringify(grant),
      grant.holderId,
      ttl,
      preempt ? '1' : '0',
    )) as [number, string];
    if (granted === 1) return { granted: true, previous: parse(previous) };
    return { granted: false, holder: parse(previous)! };
  }

  async release(channelId: number, grantId: string): Promise<FloorGrant | null> {
    return parse((await this.redis.eval(RELEASE, 1, this.key(channelId), grantId)) as string);
  }

  async clear(channelId: number): Promise<FloorGrant | null> {
    return parse((await this.redis.eval(CLEAR, 1, this.key(channelId))) as string);
  }

  async current(channelId: number): Promise<FloorGrant | null> {
    return parse(await this.redis.get(this.key(channelId)));
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}
