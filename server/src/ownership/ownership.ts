import type { FastifyInstance } from 'fastify';
import { prepareOwnerSetup } from './owner-setup-at-start.js';
import { registerOwnershipRoutes } from './ownership-routes.js';

/** Who owns the server: the setup code minted at start, and the claim card's endpoints. */
export async function registerOwnership(app: FastifyInstance): Promise<void> {
  registerOwnershipRoutes(app);
  await prepareOwnerSetup(app.ctx.database.db, app.ctx.config.dataDir, app.log, app.ctx.operatorNotice);
}
