import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.js';

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
 * Cross-site request forgery guard: state-changing API requests must come from our own pages.
 * The built-in provider's endpoints (/oidc) are excluded: the token endpoint is called server to
 * server and the provider protects its own forms.
 */
export function registerSameOriginCheck(app: FastifyInstance, publicUrl: URL): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.url.startsWith('/api/')) return;
    // Server-to-server callers (signed webhooks) prove themselves another way.
    if ((request.routeOptions.config as { crossOrigin?: boolean }).crossOrigin) return;
    if (!isSameOrigin(request, publicUrl)) throw forbidden('Cross-origin request refused');
  });
}
