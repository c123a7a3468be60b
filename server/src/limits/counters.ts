import { Redis } from 'ioredis';
import { RateLimiterDrizzle, RateLimiterRedis, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { Database } from '../db/database.js';
import { rateLimits } from '../db/schema.js';

/** Far above any limit we set: counters count, the callers decide what a count means. */
const UNBOUNDED = 1_000_000_000;

/**
 * Atomic counters shared by every instance: Redis when REDIS_URL is set, the database otherwise
 * (PGlite or PostgreSQL, through rate-limiter-flexible's Drizzle store). Never process memory, so a
 * limit holds across instances and restarts. Each key counts for `durationS` seconds from its first
 * point; `penalty` adds atomically and answers the new count, so parallel requests each get their own.
 */
export interface Counters {
  counter(name: string, durationS: number): RateLimiterStoreAbstract;
  readonly store: 'redis' | 'database';
  close(): Promise<void>;
}

export function createCounters(options: {
  db: Database;
  redisUrl: string | undefined;
  redisPrefix: string;
  onError: (error: unknown) => void;
}): Counters {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 3, enableOfflineQueue: true })
    : undefined;
  redis?.on('error', options.onError);
  const made = new Map<string, RateLimiterStoreAbstract>();

  const create = (keyPrefix: string, duration: number): RateLimiterStoreAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.redisPrefix}limit:${keyPrefix}`, points: UNBOUNDED, duration })
      : // Expired rows are purged by the housekeeping job, not by a timer per limiter.
        new RateLimiterDrizzle({ storeClient: options.db, schema: rateLimits, keyPrefix, points: UNBOUNDED, duration, clearExpiredByTimeout: false });

  return {
    store: redis ? 'redis' : 'database',
    counter(name, durationS) {
      const id = `${name}|${durationS}`;
      let limiter = made.get(id);
      if (!limiter) made.set(id, (limiter = create(name, durationS)));
      return limiter;
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
