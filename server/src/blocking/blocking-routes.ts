import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { userParamsSchema } from '../../../protocol/users.js';
import { requireUser } from '../auth/require-user.js';
import { blockUser, unblockUser } from './block-actions.js';
import { listBlocked } from './block-store.js';

export function registerBlockingRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.blockedUsers, async (request) => {
    const user = await requireUser(request);
    return listBlocked(ctx.database.db, user);
  });

  app.post(API_PATHS.userBlock, async (request) => {
    const { id } = userParamsSchema.parse(request.params);
    const user = await requireUser(request);
    const target = await blockUser(ctx.database.db, user, id);
    await ctx.voice.provider.blockChanged(user.id, target.id, true);
    return target;
  });

  app.delete(API_PATHS.userBlock, async (request) => {
    const { id } = userParamsSchema.parse(request.params);
    const user = await requireUser(request);
    const target = await unblockUser(ctx.database.db, user, id);
    await ctx.voice.provider.blockChanged(user.id, target.id, false);
    return target;
  });
}
