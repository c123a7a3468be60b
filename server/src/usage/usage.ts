import type { FastifyInstance } from 'fastify';
import { registerUsageRoutes } from './usage-routes.js';

/** Usage metering's REST endpoints; the sweeper and the voice hooks are started by compose(). */
export function registerUsage(app: FastifyInstance): void {
  registerUsageRoutes(app);
}
