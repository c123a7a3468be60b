import type { FastifyInstance } from 'fastify';
import { registerUsageRoutes } from './usage-routes.js';
import { UsageSweeper } from './usage-sweeper.js';

const SWEEP_INTERVAL_MS = 30_000;

/** Usage metering: the REST endpoints and the sweeper that closes sessions of vanished users. */
export function registerUsage(app: FastifyInstance): void {
  registerUsageRoutes(app);
  const sweeper = new UsageSweeper(app.ctx.database.db, app.ctx.presence, app.log);
  const timer = setInterval(() => {
    sweeper.sweep().catch((error: unknown) => app.log.error({ err: error }, 'usage sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
