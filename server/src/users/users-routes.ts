import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  changeSubscriptionBodySchema,
  userChannelsParamsSchema,
  userParamsSchema,
} from '../../../protocol/users.js';
import { requireSelfOrSuperadmin, requireSuperadmin } from '../access/tier-guards.js';
import { requireUser } from '../auth/require-user.js';
import { changeSubscription } from './subscription.js';
import { channelsOfUser } from './user-channels.js';
import { listUsers } from './user-directory.js';

export function registerUserRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.users, async (request) => {
    const viewer = await requireUser(request);
    return listUsers(ctx.database.db, viewer);
  });

  app.get(API_PATHS.userChannels, async (request) => {
    const { userId } = userChannelsParamsSchema.parse(request.params);
    await requireSelfOrSuperadmin(request, userId);
    return channelsOfUser(ctx.database.db, userId);
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
