import type { FastifyInstance } from 'fastify';
import { channelParamsSchema, createChannelBodySchema } from '../../../protocol/channels.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { requireChannelAdmin } from '../access/channel-guards.js';
import { hasAllChannelsAccess, requireAdminTier } from '../access/tier-guards.js';
import { requireUser } from '../auth/require-user.js';
import { createChannel, deleteChannel, listAllChannels, listChannelsOf } from './channel-store.js';
import { onVoiceServer } from '../voice/voice-server-error.js';
import { withErrorField } from './creation-errors.js';
import { registerMemberRoutes } from './members-routes.js';

export function registerChannelRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  registerMemberRoutes(app);

  /** Member tier and above: every channel; free: their own (DESIGN §3 "Channels"). */
  app.get('/api/channels', async (request) => {
    const user = await requireUser(request);
    const { db } = ctx.database;
    return hasAllChannelsAccess(user) ? listAllChannels(db) : listChannelsOf(db, user.id);
  });

  app.post('/api/channels', { errorHandler: withErrorField }, async (request, reply) => {
    const { name } = createChannelBodySchema.parse(request.body);
    const user = await requireAdminTier(request);
    const channel = await createChannel(ctx.database.db, name, user.id);
    return reply.status(201).send(channel);
  });

  app.delete('/api/channels/:id', async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelAdmin(request, id);
    const memberIds = await deleteChannel(ctx.database.db, id, () =>
      onVoiceServer('delete the channel', () => ctx.voice.closeRoom(id)),
    );
    ctx.channelEvents.publish({ type: 'channel_deleted', channelId: id, memberIds });
    return { message: 'Channel deleted' } satisfies MessageResponse;
  });
}
