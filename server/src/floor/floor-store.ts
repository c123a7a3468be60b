import { Redis } from 'ioredis';
import { closeRedis } from '../realtime/close-redis.js';

/** One hold of a walkie-talkie channel's floor. `grantId` tells two holds by the same user apart. */
export interface FloorGrant {
  holderId: string;
  grantId: string;
  /** Epoch milliseconds: the floor is free again at this moment at the latest. */
  expiresAt: number;
  /** An SOS hold (decision 050): nobody takes it but the same sender's next SOS. */
  sos?: boolean;
}

/**
 * Who may take a held floor: nobody (`none`), a channel admin cutting into anyone but an SOS
 * (`admin`), an SOS cutting into anything but another person's SOS (`sos`).
 */
export type FloorPriority = 'none' | 'admin' | 'sos';
const PRIORITY_CODE: Record<FloorPriority, string> = { none: '0', admin: '1', sos: '2' };

/**
 * The store keeps a hold this long past its `expiresAt`: the instance that granted it ends it on
 * time and tells everyone; the store's own expiry is the fallback for an instance that died.
 */
export const FLOOR_EXPIRY_GRACE_MS = 2_000;

/**
 * After a hold of theirs ends (released or expired), the same person waits this long before a new
 * one: back-to-back holds would otherwise keep the floor past the channel's maximum for good.
 */
export const FLOOR_PAUSE_MS = 1_000;

export type FloorAcquired =
  | { granted: true; previous: FloorGrant | null }
  /** Someone holds it: another user (busy), or this very user, whose hold is not renewed. */
  | { granted: false; holder: FloorGrant }
  /** This user's last hold ended less than the pause ago. */
  | { granted: false; holder: null; tooSoon: true };

/**
 * Who holds each walkie-talkie channel's floor: the one truth every instance asks (in memory on one
 * instance, Redis across several). A hold expires by itself shortly after `expiresAt`, so a holder
 * whose instance died never keeps the floor much past the channel's maximum transmission time.
 */
export interface FloorStore {
  /**
   * Takes the floor for `grant` unless someone holds it. `admin` priority (a channel admin cutting
   * in) takes it from another user anyway, unless that hold is an SOS. A hold is never renewed nor
   * taken over by its own holder (pressing again, or on another device, answers the hold as it is,
   * so no hold outlives the maximum it was granted with), and a user whose hold ended less than
   * `FLOOR_PAUSE_MS` ago waits (`tooSoon`). `sos` priority (decision 050) takes the floor from any
   * hold but another user's SOS (then it is refused with that holder: the caller queues), renews
   * the sender's own hold (an extension), and knows no pause.
   */
  acquire(channelId: number, grant: FloorGrant, priority: FloorPriority): Promise<FloorAcquired>;
  /**
   * Ends the hold `grantId` if it is still the current one (its holder's pause starts); answers the
   * ended hold.
   */
  release(channelId: number, grantId: string): Promise<FloorGrant | null>;
  /** Frees the floor whoever holds it (talk mode changed, channel deleted); answers the ended hold. */
  clear(channelId: number): Promise<FloorGrant | null>;
  current(channelId: number): Promise<FloorGrant | null>;
  close(): Promise<void>;
}

const pauseKey = (channelId: number, userId: string) => `${channelId}:${userId}`;

export class MemoryFloorStore implements FloorStore {
  private readonly grants = new Map<number, FloorGrant>();
  /** `channelId:userId` → when that user's pause after their last hold ends (epoch ms). */
  private readonly pauses = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly pauseMs = FLOOR_PAUSE_MS,
  ) {}

  async acquire(channelId: number, grant: FloorGrant, priority: FloorPriority): Promise<FloorAcquired> {
    const holder = await this.current(channelId);
    if (priority === 'sos') {
      if (holder?.sos && holder.holderId !== grant.holderId) return { granted: false, holder };
      this.grants.set(channelId, grant);
      return { granted: true, previous: holder };
    }
    if (holder?.holderId === grant.holderId) return { granted: false, holder };
    const key = pauseKey(channelId, grant.holderId);
    const pausedUntil = this.pauses.get(key);
    if (pausedUntil !== undefined) {
      if (pausedUntil > this.now()) return { granted: false, holder: null, tooSoon: true };
      this.pauses.delete(key);
    }
    if (holder && (priority === 'none' || holder.sos)) return { granted: false, holder };
    this.grants.set(channelId, grant);
    return { granted: true, previous: holder };
  }

  async release(channelId: number, grantId: string): Promise<FloorGrant | null> {
    const holder = await this.current(channelId);
    if (!holder || holder.grantId !== grantId) return null;
    this.grants.delete(channelId);
    this.pauses.set(pauseKey(channelId, holder.holderId), this.now() + this.pauseMs);
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
      this.pauses.set(pauseKey(channelId, grant.holderId), this.now() + this.pauseMs);
      return null;
    }
    return grant ?? null;
  }

  async close(): Promise<void> {
    this.grants.clear();
    this.pauses.clear();
  }
}

/**
 * KEYS[1] the channel's floor key, KEYS[2] the holder's pause key. ARGV: grant JSON, holder id,
 * ttl ms, priority ('0' none, '1' admin, '2' sos). Answers {1, previous} granted, {0, holder}
 * held, {2, ''} too soon.
 */
const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
local held = current and cjson.decode(current)
if ARGV[4] == '2' then
  if held and held.sos == true and held.holderId ~= ARGV[2] then return {0, current} end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return {1, current or ''}
end
if held and held.holderId == ARGV[2] then return {0, current} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {2, ''} end
if held and (ARGV[4] ~= '1' or held.sos == true) then return {0, current} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return {1, current or ''}
`;

/**
 * KEYS[1] the channel's floor key. ARGV[1] the grant id that must still hold it, ARGV[2] the pause
 * in ms, ARGV[3] the pause keys' prefix (the holder's id is appended).
 */
const RELEASE = `
local current = redis.call('GET', KEYS[1])
if not current or cjson.decode(current).grantId ~= ARGV[1] then return '' end
redis.call('DEL', KEYS[1])
redis.call('SET', ARGV[3] .. cjson.decode(current).holderId, '1', 'PX', ARGV[2])
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
    private readonly pauseMs = FLOOR_PAUSE_MS,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', onError);
  }

  private key(channelId: number): string {
    return `${this.namespace}floor:${channelId}`;
  }

  private pausePrefix(channelId: number): string {
    return `${this.namespace}floor-pause:${channelId}:`;
  }

  async acquire(channelId: number, grant: FloorGrant, priority: FloorPriority): Promise<FloorAcquired> {
    const ttl = Math.max(1, grant.expiresAt + FLOOR_EXPIRY_GRACE_MS - Date.now());
    const [granted, previous] = (await this.redis.eval(
      ACQUIRE,
      2,
      this.key(channelId),
      this.pausePrefix(channelId) + grant.holderId,
      JSON.stringify(grant),
      grant.holderId,
      ttl,
      PRIORITY_CODE[priority],
    )) as [number, string];
    if (granted === 1) return { granted: true, previous: parse(previous) };
    if (granted === 2) return { granted: false, holder: null, tooSoon: true };
    return { granted: false, holder: parse(previous)! };
  }

  async release(channelId: number, grantId: string): Promise<FloorGrant | null> {
    return parse(
      (await this.redis.eval(
        RELEASE,
        1,
        this.key(channelId),
        grantId,
        this.pauseMs,
        this.pausePrefix(channelId),
      )) as string,
    );
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
