import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.js';
import { matchedRoute, routeAccess } from './route-access.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when the request's Origin is this app: the public URL, or the host the request was sent to
 * (so a server reached at 127.0.0.1 and at localhost both work). A missing Origin is not same-origin.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: URL): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === publicUrl.origin) return true;
  const host = request.headers.host;
  return host !== undefined && parsed.host === host && parsed.protocol === `${request.protocol}:`;
}

/**
 * True when the browser says it sent this request from our own origin with fetch() (Fetch Metadata),
 * not as a navigation: how a same-origin GET, which carries no Origin header, proves where it came from.
 */
export function isSameOriginFetch(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] === 'same-origin' && request.headers['sec-fetch-mode'] !== 'navigate';
}

/**
 * Cross-site request forgery guard: every state-changing request to a route of ours must come from
 * our own pages. The decision is taken on the route the router matched — `/%61pi/...` reaches the
 * same handler as `/api/...`, so it is checked the same way. Only routes that declare `crossOrigin`
 * (the built-in provider's endpoints, signed webhooks) are exempt. A request that matched no route
 * reaches no handler and changes nothing. A GET route that writes (`writesOnGet`) is checked too.
 */
export function registerSameOriginCheck(app: FastifyInstance, publicUrl: URL): void {
  app.addHook('onRequest', async (request) => {
    if (matchedRoute(request) === undefined) return;
    const access = routeAccess(request);
    if (access.crossOrigin) return;
    if (SAFE_METHODS.has(request.method)) {
      if (!access.writesOnGet || isSameOrigin(request, publicUrl) || isSameOriginFetch(request)) return;
    } else if (isSameOrigin(request, publicUrl)) return;
    throw forbidden('Cross-origin request refused');
  });
}
