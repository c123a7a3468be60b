import type { FastifyInstance } from 'fastify';
import { createReadiness } from './readiness.js';

/**
 * Probes for load balancers: /healthz says the process is up, /readyz that every dependency it is
 * configured with answers (503 names the ones that do not). While the server shuts down, Fastify
 * answers 503 to every request, so /readyz fails from the first moment of a SIGTERM.
 */
export function registerHealthRoutes(app: FastifyInstance): void {
  const readiness = createReadiness(app.ctx.config, app.ctx.database, app.log);
  app.addHook('onClose', async () => readiness.close());

  // Load balancers probe every few seconds: their requests are logged only when something is wrong.
  const quiet = { logLevel: 'warn' as const };
  app.get('/healthz', quiet, async () => ({ status: 'ok' }));
  app.get('/readyz', quiet, async (_request, reply) => {
    const report = await readiness.check();
    if (report.ready) return { status: 'ready', checks: report.checks };
    return reply.status(503).send({ status: 'unavailable', failed: report.failed, checks: report.checks });
  });
}
