import type { FastifyInstance } from 'fastify';
import { WebhookReceiver } from 'livekit-server-sdk';
import { API_PATHS } from '../../../../protocol/api-paths.js';
import { channelIdOfRoom, userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import { forbidden } from '../../http/errors.js';
import { closeVoiceUsage, openVoiceUsage } from '../../usage/voice-usage.js';

export const LIVEKIT_WEBHOOK_PATH = API_PATHS.livekitWebhook;

/**
 * LiveKit tells us when a participant joins and leaves; the connection's usage record opens and
 * closes then, whatever the browser says. Requests must carry LiveKit's signature over the body.
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
      // Joins open and leaves close the connection's usage record (usage/voice-usage.ts, shared
      // with the built-in SFU); the livekit issue's work adds room_finished and the room prefix.
      const participant = event.participant;
      const userId = participant ? userIdFromIdentity(participant.identity) : undefined;
      const channelId = channelIdOfRoom(event.room?.name);
      if (participant && userId && channelId !== undefined) {
        const connection = {
          userId,
          channelId,
          identity: participant.identity,
          connectionId: participant.sid || participant.identity,
        };
        // LiveKit's times are Unix seconds.
        const joinedAt = new Date(Number(participant.joinedAt) * 1000 || Date.now());
        const { db } = app.ctx.database;
        if (event.event === 'participant_joined') await openVoiceUsage(db, connection, joinedAt);
        if (event.event === 'participant_left') {
          const minutes = await closeVoiceUsage(db, connection, { joinedAt, leftAt: new Date() });
          request.log.info({ userId, channelId, minutes }, 'livekit participant left');
        }
      }
      return { ok: true };
    });
  });
}
