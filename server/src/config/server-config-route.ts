import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import type { ServerConfig } from '../../../protocol/server-config.js';

/** `GET /api/config`: public, so the landing page can show the operator's Terms and Privacy links. */
export function registerServerConfigRoute(app: FastifyInstance): void {
  const { config } = app.ctx;
  const body: ServerConfig = {
    billing: config.billing,
    termsUrl: config.legal.termsUrl ?? null,
    privacyUrl: config.legal.privacyUrl ?? null,
  };
  app.get(API_PATHS.serverConfig, { config: { public: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(body));
}
