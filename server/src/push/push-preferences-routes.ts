import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { channelParamsSchema } from '../../../protocol/channels.js';
import { channelNotifySchema, pushPreferencesSchema, type ChannelNotify, type PushPreferences } from '../../../protocol/push.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { requireUser } from '../auth/require-user.js';
import { channelMembers } from '../db/schema.js';
import { pushPreferencesOf, savePushPreferences } from './push-preferences-store.js';

/**
 * Which events notify a person: per kind on all their devices (`/api/push/preferences`), and per
 * channel or conversation they are a member of ("Notify me", `/api/channels/:id/notify`). Always the
 * signed-in user's own; a channel's switch only for its members.
 */
export function registerPushPreferencesRoutes(app: FastifyInstance): void {
  const db = app.ctx.database.db;

  app.get(API_PATHS.pushPreferences, async (request) => {
    const user = await requireUser(request);
    return (await pushPreferencesOf(db, user.id)) satisfies PushPreferences;
  });

  app.put(API_PATHS.pushPreferences, async (request) => {
    const preferences = pushPreferencesSchema.parse(request.body);
    const user = await requireUser(request);
    await savePushPreferences(db, user.id, preferences);
    return preferences satisfies PushPreferences;
  });

  app.get(API_PATHS.channelNotify, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const { membership } = await requireChannelMember(request, id);
    return { notify: membership?.notify ?? false } satisfies ChannelNotify;
  });

  app.put(API_PATHS.channelNotify, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const { notify } = channelNotifySchema.parse(request.body);
    const { user } = await requireChannelMember(request, id);
    await db
      .update(channelMembers)
      .set({ notify })
      .where(and(eq(channelMembers.channelId, id), eq(channelMembers.userId, user.id)));
    return { notify } satisfies ChannelNotify;
  });
}
