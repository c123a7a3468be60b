import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  channelParamsSchema,
  createChannelBodySchema,
  type ChannelActivity,
} from '../../../protocol/channels.js';
import {
  channelTalkModeBodySchema,
  type ChannelTalkModeSettings,
} from '../../../protocol/talk-mode.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { userChannelsParamsSchema } from '../../../protocol/users.js';
import { requireChannelAdmin } from '../access/channel-guards.js';
import {
  hasAllChannelsAccess,
  requireAdminTier,
  requireSelfOrSuperadmin,
} from '../access/tier-guards.js';
import { requireUser } from '../auth/require-user.js';
import { createChannel, listAllChannels, listChannelsOf, setTalkMode } from './channel-store.js';
import { channelActivityOf } from './channel-activity.js';
import { withErrorField } from './creation-errors.js';
import { deleteChannelEverywhere } from './delete-channel.js';
import { registerMemberRoutes } from './members-routes.js';
import { channelsOfUser } from './user-channels.js';

export function registerChannelRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  registerMemberRoutes(app);

  /** Member tier and above: every channel; free: their own (DESIGN §3 "Channels"). */
  app.get(API_PATHS.channels, async (request) => {
    const user = await requireUser(request);
    const { db } = ctx.database;
    return hasAllChannelsAccess(user) ? listAllChannels(db) : listChannelsOf(db, user.id);
  });

  /** What is going on in each of my channels (the Channels menu): "N missed", others there now. */
  app.get(API_PATHS.channelActivity, async (request) => {
    const user = await requireUser(request);
    const { database, presence, transmissions } = ctx;
    return (await channelActivityOf(
      { db: database.db, presence, transmissions },
      user.id,
    )) satisfies ChannelActivity[];
  });

  /** One user's channels: their own, or anyone's for a superadmin. */
  app.get(API_PATHS.userChannels, async (request) => {
    const { userId } = userChannelsParamsSchema.parse(request.params);
    await requireSelfOrSuperadmin(request, userId);
    return channelsOfUser(ctx.database.db, userId);
  });

  app.post(API_PATHS.channels, { errorHandler: withErrorField }, async (request, reply) => {
    const { name } = createChannelBodySchema.parse(request.body);
    const user = await requireAdminTier(request);
    const channel = await createChannel(ctx.database.db, name, user.id);
    await ctx.presence.channelsGained([user.id]);
    return reply.status(201).send(channel);
  });

  app.delete(API_PATHS.channel, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelAdmin(request, id);
    const { database, voice, floor, transmissions, channelEvents } = ctx;
    await deleteChannelEverywhere(
      { db: database.db, voice: voice.provider, floor, transmissions, channelEvents },
      id,
    );
    return { message: 'Channel deleted' } satisfies MessageResponse;
  });

  /** A channel admin makes the channel open or walkie-talkie (one talker at a time). */
  app.put(API_PATHS.channelTalkMode, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const body = channelTalkModeBodySchema.parse(request.body);
    await requireChannelAdmin(request, id);
    const settings = await setTalkMode(ctx.database.db, id, body);
    await ctx.floor.talkModeChanged(id, settings.talkMode);
    ctx.channelEvents.publish({ type: 'talk_mode_changed', channelId: id });
    // Keeping switched off: what was kept is deleted too, not merely hidden.
    if (!settings.keepTransmissions && (await ctx.transmissions.deleteOfChannel(id)) > 0)
      ctx.channelEvents.publish({ type: 'transmissions_changed', channelId: id });
    return settings satisfies ChannelTalkModeSettings;
  });
}
