import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  FREE_TIER_LIMIT_MESSAGE,
  endUsageSessionBodySchema,
  startUsageSessionBodySchema,
} from '../../../protocol/usage.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { currentSession, requireUser } from '../auth/require-user.js';
import { forbidden, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import { findUsageSession, reportUsageSession, startUsageSession } from '../usage/usage-store.js';
import { mayOpenVoice } from './voice-access.js';

/**
 * A client's usage session around its time in voice: started only when the shared voice-access
 * rule admits the user to the channel (the same rule as the token route, the SFU and LiveKit's
 * webhook), ended with the minutes the server counts.
 */
export function registerUsageSessionRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.database.db;

  app.post(API_PATHS.usageSessionStart, async (request) => {
    const { channelId } = startUsageSessionBodySchema.parse(request.body);
    const { user } = await requireChannelMember(request, channelId);
    const access = await mayOpenVoice(app.ctx.voice.access, {
      userId: user.id,
      channelId,
      sessionId: (await currentSession(request))?.sessionId,
    });
    if (!access.admitted) {
      if (access.reason === 'over_limit') throw tooManyRequests(FREE_TIER_LIMIT_MESSAGE);
      if (access.reason === 'session_ended') throw unauthorized();
      if (access.reason === 'blocked') throw forbidden(access.message);
      throw forbidden('You are not a member of this channel');
    }
    const sessionId = await startUsageSession(db(), user.id, channelId);
    request.log.info({ sessionId, channelId }, 'usage session started');
    return { sessionId };
  });

  app.post(API_PATHS.usageSessionEnd, async (request) => {
    const { sessionId } = endUsageSessionBodySchema.parse(request.body);
    const user = await requireUser(request);
    const session = await findUsageSession(db(), sessionId);
    if (!session) throw notFound('Usage session not found');
    if (session.userId !== user.id) throw forbidden('Not your usage session');
    return { participantMinutes: reportUsageSession(session) };
  });
}
