import type { FastifyRequest } from 'fastify';

/**
 * What a route declares about who may call it, in its Fastify `config`. The shared hooks read it from
 * the route the router matched (never from the raw URL, which may be percent-encoded), so a path that
 * decodes to a route is checked exactly like that route.
 */
export interface RouteAccess {
  /** Reachable without a session (sign-in flow, the provider's own endpoints). */
  public?: boolean;
  /**
   * Called by other servers, which send no same-origin `Origin` and no session cookie: the route
   * proves its caller another way (a signature, the provider's own checks). Implies `public`.
   */
  crossOrigin?: boolean;
  /**
   * A GET that changes something, kept because a spec names it: checked for our origin like a
   * POST — by its Origin, or by the browser's `Sec-Fetch-Site: same-origin` on a fetch (a same-origin
   * GET carries no Origin) — so a navigation from another site cannot trigger it.
   */
  writesOnGet?: boolean;
}

export function routeAccess(request: FastifyRequest): RouteAccess {
  return request.routeOptions.config;
}

/** The matched route's path pattern (e.g. `/api/users/:id/subscription`), or undefined when none matched. */
export function matchedRoute(request: FastifyRequest): string | undefined {
  return request.routeOptions.url;
}

/** REST API routes: JSON bodies only, a session unless the route is public. */
export const isApiRoute = (pattern: string | undefined): pattern is string =>
  pattern !== undefined && (pattern === '/api' || pattern.startsWith('/api/'));

declare module 'fastify' {
  // Route configs are typed, so a misspelt `public` fails the build instead of locking a route.
  interface FastifyContextConfig {
    public?: boolean;
    crossOrigin?: boolean;
    writesOnGet?: boolean;
  }
}
