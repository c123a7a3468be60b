import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** Per user, over all their sockets of one route and all instances (decision 016). */
export interface UserMessageBudget {
  /** Messages allowed per window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
}

/**
 * Message budgets per user across sockets, so opening more sockets does not buy more messages.
 * Shared across instances through Redis when REDIS_URL is set (DESIGN §2), in memory otherwise; if
 * Redis fails, each instance falls back to its own memory budget rather than letting everything by.
 */
export class UserMessageLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly redis: Redis | undefined;

  constructor(
    private readonly store:
      { url: string; prefix: string; onError: (error: unknown) => void } | undefined,
  ) {
    if (store) {
      this.redis = new Redis(store.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      this.redis.on('error', store.onError);
    }
  }

  /** Gives a socket route its per-user budget. */
  define(route: string, budget: UserMessageBudget): void {
    const memory = new RateLimiterMemory({ ...budget, keyPrefix: `msg:${route}` });
    this.limiters.set(
      route,
      this.redis && this.store
        ? new RateLimiterRedis({
            ...budget,
            storeClient: this.redis,
            keyPrefix: `${this.store.prefix}msg:${route}`,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory,
    );
  }

  /** Counts one message of the user on the route; false when their budget is spent. */
  async take(route: string, userId: string): Promise<boolean> {
    const limiter = this.limiters.get(route);
    if (!limiter) throw new Error(`no message budget for ${route}`);
    try {
      await limiter.consume(userId);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
