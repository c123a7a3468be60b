import type { FastifyContextConfig, FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  config: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route this server registered (HEAD twins left out), in registration order. */
    readonly routeCatalog: readonly RouteEntry[];
  }
}

/**
 * Records every route as it registers, so a test can hold the whole API against its authorization
 * table: a route nobody wrote a row for fails that test instead of going unchecked.
 */
export function registerRouteCatalog(app: FastifyInstance): void {
  const entries: RouteEntry[] = [];
  app.decorate('routeCatalog', entries);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') entries.push({ method, url: route.url, config: route.config ?? {} });
    }
  });
}
