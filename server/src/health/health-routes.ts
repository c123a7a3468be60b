import type { FastifyInstance } from 'fastify';

/** Probes for load balancers: /healthz says the process is up, /readyz that it can reach the database. */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await app.ctx.database.ping();
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unreachable' });
  });
}
