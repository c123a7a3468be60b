import type { FastifyInstance } from 'fastify';
import {
  FREE_TIER_LIMIT_MESSAGE,
  endUsageSessionBodySchema,
  startUsageSessionBodySchema,
} from '../../../protocol/usage.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { requireUser } from '../auth/require-user.js';
import { forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { mayConnect } from './usage-figures.js';
import {
  endUsageSession,
  findUsageSession,
  setPayAsYouGo,
  startUsageSession,
  usageOf,
} from './usage-store.js';

export function registerUsageRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.database.db;

  app.get('/api/usage', async (request) => {
    const user = await requireUser(request);
    return usageOf(db(), user.id);
  });

  for (const [path, enabled] of [
    ['/api/usage/pay-as-you-go/enable', true],
    ['/api/usage/pay-as-you-go/disable', false],
  ] as const) {
    app.post(path, async (request) => {
      const user = await requireUser(request);
      await setPayAsYouGo(db(), user.id, enabled);
      return { payAsYouGoEnabled: enabled };
    });
  }

  app.post('/api/usage/session/start', async (request) => {
    const { channelId } = startUsageSessionBodySchema.parse(request.body);
    const { user } = await requireChannelMember(request, channelId);
    if (!mayConnect(await usageOf(db(), user.id))) throw tooManyRequests(FREE_TIER_LIMIT_MESSAGE);
    const sessionId = await startUsageSession(db(), user.id, channelId);
    request.log.info({ sessionId, channelId }, 'usage session started');
    return { sessionId };
  });

  app.post('/api/usage/session/end', async (request) => {
    const { sessionId } = endUsageSessionBodySchema.parse(request.body);
    const user = await requireUser(request);
    const session = await findUsageSession(db(), sessionId);
    if (!session) throw notFound('Usage session not found');
    if (session.userId !== user.id) throw forbidden('Not your usage session');
    const participantMinutes = await endUsageSession(db(), session, 'client');
    return { participantMinutes };
  });
}
