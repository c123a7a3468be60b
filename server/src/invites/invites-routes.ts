import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  acceptInviteBodySchema,
  generateInviteQuerySchema,
  type AcceptInviteResponse,
  type InviteResponse,
} from '../../../protocol/invites.js';
import { requireChannelReader } from '../access/channel-guards.js';
import { requireUser } from '../auth/require-user.js';
import { acceptInvite } from './accept-invite.js';
import { createInvite } from './invite-store.js';
import { inviteUrl } from './invite-token.js';

export function registerInviteRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.inviteGenerate, async (request) => {
    const { channelId } = generateInviteQuerySchema.parse(request.query);
    const { user } = await requireChannelReader(request, channelId);
    const token = await createInvite(ctx.database.db, channelId, user.id);
    return {
      inviteUrl: inviteUrl(ctx.config.publicUrl, channelId, token),
    } satisfies InviteResponse;
  });

  app.post(API_PATHS.inviteAccept, async (request) => {
    const { token } = acceptInviteBodySchema.parse(request.body);
    const user = await requireUser(request);
    const channelId = await acceptInvite(ctx, user.id, token);
    return { channelId } satisfies AcceptInviteResponse;
  });
}
