import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  acceptInviteBodySchema,
  channelInviteParamsSchema,
  generateInviteBodySchema,
  generateInviteQuerySchema,
  INVALID_INVITE_MESSAGE,
  INVITES_PER_HOUR,
  invitePreviewBodySchema,
  type InvitePreview,
  type AcceptInviteResponse,
  type InviteResponse,
} from '../../../protocol/invites.js';
import { channelParamsSchema } from '../../../protocol/channels.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import {
  requireChannelAdmin,
  requireChannelReader,
  requireGroupChannel,
} from '../access/channel-guards.js';
import { requireUser } from '../auth/require-user.js';
import { notFound, tooManyRequests } from '../http/errors.js';
import { acceptInvite } from './accept-invite.js';
import { channelInvites } from './invite-list.js';
import { createInvite, revokeInvite } from './invite-store.js';
import { previewInvite } from './invite-preview.js';
import { inviteUrl } from './invite-token.js';

/** A new link to the channel for one of its members (or a superadmin), counted per person and hour. */
async function mintInvite(request: FastifyRequest, channelId: number): Promise<InviteResponse> {
  const { ctx } = request.server;
  const access = await requireChannelReader(request, channelId);
  // Nobody joins a direct conversation: it has no invite links.
  requireGroupChannel(access);
  const { user } = access;
  const minted = await ctx.counters.counter('invite-mint', 3600).penalty(user.id);
  if (minted.consumedPoints > INVITES_PER_HOUR) {
    throw tooManyRequests('Too many invite links for now. Try again later, or reuse a link you made.');
  }
  const token = await createInvite(ctx.database.db, channelId, user.id);
  return { inviteUrl: inviteUrl(ctx.config.publicUrl, channelId, token) };
}

export function registerInviteRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  // Minting changes state (and retires a member's oldest link), so it is a POST like every write.
  app.post(API_PATHS.inviteGenerate, async (request) => {
    const { channelId } = generateInviteBodySchema.parse(request.body);
    return mintInvite(request, channelId);
  });

  // The spec's GET, for a client that follows it: answered only to our own pages (decision 027).
  app.get(API_PATHS.inviteGenerate, { config: { writesOnGet: true } }, async (request) => {
    const { channelId } = generateInviteQuerySchema.parse(request.query);
    return mintInvite(request, channelId);
  });

  app.post(API_PATHS.inviteAccept, async (request) => {
    const { token } = acceptInviteBodySchema.parse(request.body);
    const user = await requireUser(request);
    const { database, presence, channelEvents } = ctx;
    const channelId = await acceptInvite({ db: database.db, presence, channelEvents }, user.id, token);
    return { channelId } satisfies AcceptInviteResponse;
  });

  // The page an invite link opens names the channel and its inviter, before sign-in (decision 047):
  // only to the token's holder, so it is a POST (the token stays out of logged URLs), per address.
  app.post(
    API_PATHS.invitePreview,
    { config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const { token } = invitePreviewBodySchema.parse(request.body);
      const preview = await previewInvite(ctx.database.db, token);
      if (!preview) throw notFound(INVALID_INVITE_MESSAGE);
      return preview satisfies InvitePreview;
    },
  );

  app.get(API_PATHS.channelInvites, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelAdmin(request, id);
    return channelInvites(ctx.database.db, id);
  });

  app.delete(API_PATHS.channelInvite, async (request) => {
    const { id, inviteId } = channelInviteParamsSchema.parse(request.params);
    await requireChannelAdmin(request, id);
    if (!(await revokeInvite(ctx.database.db, id, inviteId))) throw notFound('Invite not found');
    return { message: 'Invite revoked' } satisfies MessageResponse;
  });
}
