import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { changeSubscriptionBodySchema, userParamsSchema } from '../../../protocol/users.js';
import { requireSuperadmin } from '../access/tier-guards.js';
import { requireUser } from '../auth/require-user.js';
import { changeSubscription } from './subscription.js';
import { listUsers } from './user-directory.js';

export function registerUserRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.users, async (request) => {
    const viewer = await requireUser(request);
    return listUsers(ctx.database.db, viewer);
  });

  app.post(API_PATHS.userSubscription, async (request) => {
    const { id } = userParamsSchema.parse(request.params);
    const { subscriptionTier } = changeSubscriptionBodySchema.parse(request.body);
    await requireSuperadmin(request);
    const user = await changeSubscription(ctx.database.db, id, subscriptionTier);
    // Their open app learns at once (what it offers depends on the tier), on whichever instance.
    await ctx.sockets.accountChanged(id);
    return user;
  });
}
