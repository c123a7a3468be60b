import type { FastifyInstance } from 'fastify';
import { WebhookReceiver } from 'livekit-server-sdk';
import { API_PATHS } from '../../../../protocol/api-paths.js';
import { channelIdOfRoom, userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import { forbidden } from '../../http/errors.js';
import { endSessionsForClosedVoice } from '../../usage/usage-sweeper.js';

export const LIVEKIT_WEBHOOK_PATH = API_PATHS.livekitWebhook;

/**
 * LiveKit tells us when a participant leaves; the usage sessions that connection metered end then,
 * even if the browser never says so. Requests must carry LiveKit's signature over the body.
 */
export function registerLivekitWebhook(
  app: FastifyInstance,
  apiKey: string,
  apiSecret: string,
): void {
  const receiver = new WebhookReceiver(apiKey, apiSecret);
  app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/webhook+json', 'application/json'],
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(LIVEKIT_WEBHOOK_PATH, { config: { crossOrigin: true } }, async (request) => {
      let event: Awaited<ReturnType<WebhookReceiver['receive']>>;
      try {
        event = await receiver.receive(String(request.body), request.headers.authorization);
      } catch (error) {
        request.log.warn({ err: error }, 'livekit webhook refused: bad signature');
        throw forbidden('Invalid webhook signature');
      }
      if (event.event === 'participant_left' && event.participant) {
        const userId = userIdFromIdentity(event.participant.identity);
        const channelId = channelIdOfRoom(event.room?.name);
        if (userId && channelId !== undefined) {
          // LiveKit reports joinedAt in seconds; sessions begun before that connection end now.
          const joinedAt = new Date(Number(event.participant.joinedAt) * 1000 || Date.now());
          const ended = await endSessionsForClosedVoice(
            app.ctx.database.db,
            userId,
            channelId,
            joinedAt,
          );
          request.log.info({ userId, channelId, ended }, 'livekit participant left');
        }
      }
      return { ok: true };
    });
  });
}
