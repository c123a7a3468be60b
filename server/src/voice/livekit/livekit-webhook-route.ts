import type { FastifyInstance } from 'fastify';
import { WebhookReceiver, type WebhookEvent } from 'livekit-server-sdk';
import { API_PATHS } from '../../../../protocol/api-paths.js';
import { userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import type { Database } from '../../db/database.js';
import { forbidden } from '../../http/errors.js';
import {
  closeRoomUsage,
  closeVoiceUsage,
  openVoiceUsage,
  type VoiceConnection,
} from '../../usage/voice-usage.js';
import { channelIdOfLivekitRoom } from './livekit-rooms.js';

export const LIVEKIT_WEBHOOK_PATH = API_PATHS.livekitWebhook;

/** LiveKit's times are Unix seconds (bigint); events carry their own `createdAt`. */
const dateOf = (seconds: bigint | number | undefined, fallback: Date) => {
  const value = Number(seconds ?? 0);
  return value > 0 ? new Date(value * 1000) : fallback;
};

function connectionOf(event: WebhookEvent, roomPrefix: string): VoiceConnection | undefined {
  const participant = event.participant;
  const channelId = channelIdOfLivekitRoom(roomPrefix, event.room?.name);
  if (!participant || channelId === undefined) return undefined;
  const userId = userIdFromIdentity(participant.identity);
  if (!userId) return undefined;
  return {
    userId,
    channelId,
    identity: participant.identity,
    connectionId: participant.sid || participant.identity,
  };
}

/** What a webhook event means for usage; returns a line for the log, or undefined if not ours. */
export async function meterLivekitEvent(
  db: Database,
  event: WebhookEvent,
  roomPrefix: string,
): Promise<Record<string, unknown> | undefined> {
  const at = dateOf(event.createdAt, new Date());
  switch (event.event) {
    case 'participant_joined': {
      const connection = connectionOf(event, roomPrefix);
      if (!connection) return undefined;
      const joinedAt = dateOf(event.participant?.joinedAt, at);
      const row = await openVoiceUsage(db, connection, joinedAt);
      return { ...connection, sessionId: row.id };
    }
    // participant_connection_aborted is not metered: such a connection never carried audio.
    case 'participant_left': {
      const connection = connectionOf(event, roomPrefix);
      if (!connection) return undefined;
      const joinedAt = dateOf(event.participant?.joinedAt, at);
      const minutes = await closeVoiceUsage(db, connection, { joinedAt, leftAt: at });
      return { ...connection, minutes };
    }
    case 'room_finished': {
      const channelId = channelIdOfLivekitRoom(roomPrefix, event.room?.name);
      if (channelId === undefined) return undefined;
      const ended = await closeRoomUsage(db, channelId, at);
      return { channelId, ended };
    }
    default:
      return undefined;
  }
}

/**
 * LiveKit's webhooks meter voice (DESIGN §3 "Usage metering"): participant_joined opens a usage
 * row, participant_left closes it, room_finished closes whatever is left of the room. Requests
 * must carry LiveKit's signature over the body; rooms of other deployments (another prefix) are
 * ignored, since LiveKit sends every room's events to every configured URL.
 */
export function registerLivekitWebhook(
  app: FastifyInstance,
  options: { apiKey: string; apiSecret: string; roomPrefix: string },
): void {
  const receiver = new WebhookReceiver(options.apiKey, options.apiSecret);
  app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/webhook+json', 'application/json'],
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(LIVEKIT_WEBHOOK_PATH, { config: { crossOrigin: true } }, async (request) => {
      let event: WebhookEvent;
      try {
        event = await receiver.receive(String(request.body), request.headers.authorization);
      } catch (error) {
        request.log.warn({ err: error }, 'livekit webhook refused: bad signature');
        throw forbidden('Invalid webhook signature');
      }
      const metered = await meterLivekitEvent(app.ctx.database.db, event, options.roomPrefix);
      if (metered) request.log.info({ event: event.event, ...metered }, 'livekit webhook metered');
      return { ok: true };
    });
  });
}
