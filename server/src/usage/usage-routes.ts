import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  FREE_TIER_LIMIT_MESSAGE,
  endUsageSessionBodySchema,
  startUsageSessionBodySchema,
} from '../../../protocol/usage.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { currentSession, requireUser } from '../auth/require-user.js';
import { mayOpenVoice } from '../voice/voice-access.js';
import { forbidden, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import {
  findUsageSession,
  reportUsageSession,
  setPayAsYouGo,
  startUsageSession,
  usageOf,
} from './usage-store.js';

export function registerUsageRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.database.db;

  app.get(API_PATHS.usage, async (request) => {
    const user = await requireUser(request);
    return usageOf(db(), user.id);
  });

  for (const [path, enabled] of [
    [API_PATHS.payAsYouGoEnable, true],
    [API_PATHS.payAsYouGoDisable, false],
  ] as const) {
    app.post(path, async (request) => {
      const user = await requireUser(request);
      await setPayAsYouGo(db(), user.id, enabled);
      return { payAsYouGoEnabled: enabled };
    });
  }

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
