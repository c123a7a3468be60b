import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Counters } from './counters.js';

interface RouteInfo {
  method?: string | string[];
  url?: string;
}

/**
 * @fastify/rate-limit's store interface over our shared counters, so every route limit holds across
 * instances (Redis or the database) instead of in one process's memory. One counter family per route.
 */
export function sharedRouteLimitStore(counters: Counters): FastifyRateLimitStoreCtor {
  const routeName = (options: unknown) => {
    // At run time the plugin hands child() its merged options, with the route under `routeInfo`
    // (its typings say RouteOptions); read it defensively either way.
    const route = ((options as { routeInfo?: RouteInfo } | undefined)?.routeInfo ?? options ?? {}) as RouteInfo;
    return `route:${[route.method ?? ''].flat().join(',')} ${route.url ?? '*'}`;
  };

  class SharedRouteLimitStore implements FastifyRateLimitStore {
    constructor(private readonly name: string) {}

    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number): void {
      counters
        .counter(this.name, Math.max(1, Math.ceil(timeWindow / 1000)))
        .penalty(key)
        .then(
          (res) => callback(null, { current: res.consumedPoints, ttl: res.msBeforeNext }),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      return new SharedRouteLimitStore(routeName(routeOptions));
    }
  }

  return class extends SharedRouteLimitStore {
    constructor() {
      super('route:global');
    }
  };
}
