import type { FastifyInstance } from 'fastify';

/** Probes for load balancers: /healthz says the process is up, /readyz that it can reach the database. */
export function registerHealthRoutes(app: FastifyInstance): void {
  // Load balancers probe every few seconds: their requests are logged only when something is wrong.
  const quiet = { logLevel: 'warn' as const };
  app.get('/healthz', quiet, async () => ({ status: 'ok' }));
  app.get('/readyz', quiet, async (_request, reply) => {
    const ready = await app.ctx.database.ping();
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unreachable' });
  });
}
