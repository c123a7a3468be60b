import type { FastifyInstance } from 'fastify';
import { isApiRoute, matchedRoute, routeAccess } from '../http/route-access.js';
import { requireUser } from './require-user.js';

/**
 * Authenticate before anything else looks at the request: every `/api` route needs a session unless
 * it is declared `public` (or `crossOrigin`), and a guest is answered 401 before the body or the path
 * parameters are parsed or validated — so a guest learns nothing from 400s. Runs on the route the
 * router matched, like the same-origin check.
 */
export function registerAuthenticationGate(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(matchedRoute(request))) return;
    const access = routeAccess(request);
    if (access.public || access.crossOrigin) return;
    await requireUser(request);
  });
}
