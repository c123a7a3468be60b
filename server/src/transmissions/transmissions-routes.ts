import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { channelParamsSchema } from '../../../protocol/channels.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import {
  transmissionParamsSchema,
  type TransmissionsResponse,
} from '../../../protocol/transmissions.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { notFound } from '../http/errors.js';

/**
 * Missed transmissions: a walkie-talkie channel's kept transmissions, their audio,
 * and "seen". Only the channel's current members may list or fetch them (not even a superadmin
 * who is not a member: it is what members said to each other).
 */
export function registerTransmissionRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.channelTransmissions, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const { user } = await requireChannelMember(request, id);
    return (await ctx.transmissions.list(id, user.id)) satisfies TransmissionsResponse;
  });

  app.get(API_PATHS.channelTransmissionAudio, async (request, reply) => {
    const { id, transmissionId } = transmissionParamsSchema.parse(request.params);
    const { user } = await requireChannelMember(request, id);
    const audio = await ctx.transmissions.audio(id, transmissionId, user.id);
    if (!audio) throw notFound('Transmission not found');
    return reply
      .header('Content-Type', 'audio/ogg; codecs=opus')
      .header('Content-Length', audio.size)
      // Removed members must not keep a copy in their cache.
      .header('Cache-Control', 'private, no-store')
      .send(audio.body);
  });

  app.post(API_PATHS.channelTransmissionsRead, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const { user } = await requireChannelMember(request, id);
    await ctx.transmissions.markSeen(id, user.id);
    return { message: 'Marked as seen' } satisfies MessageResponse;
  });
}
