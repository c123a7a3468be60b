import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import type { ServerConfig } from '../../../protocol/server-config.js';
import { legalLinks } from '../legal/legal-routes.js';

/**
 * `GET /api/config`: public, so the landing page can show its terms notice: the operator's Terms and
 * Privacy pages, or the server's own default ones.
 */
export function registerServerConfigRoute(app: FastifyInstance): void {
  const { config } = app.ctx;
  const body: ServerConfig = {
    billing: config.billing,
    ...legalLinks(config),
  };
  app.get(API_PATHS.serverConfig, { config: { public: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(body));
}
