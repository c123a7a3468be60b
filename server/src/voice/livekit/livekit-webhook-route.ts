import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebhookReceiver, type WebhookEvent } from 'livekit-server-sdk';
import { API_PATHS } from '../../../../protocol/api-paths.js';
import { userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import type { Database } from '../../db/database.js';
import { HttpError, badRequest, forbidden } from '../../http/errors.js';
import type { Counters } from '../../limits/counters.js';
import {
  closeRoomUsage,
  closeVoiceUsage,
  openVoiceUsage,
  type VoiceConnection,
} from '../../usage/voice-usage.js';
import type { LivekitProvider } from './livekit-provider.js';
import { channelIdOfLivekitRoom } from './livekit-rooms.js';

export const LIVEKIT_WEBHOOK_PATH = API_PATHS.livekitWebhook;

/** An event older than this is a replay (LiveKit delivers within seconds, retries within a minute). */
export const WEBHOOK_MAX_AGE_S = 5 * 60;
/** Clock skew tolerated between LiveKit and us for an event's `createdAt` in the future. */
const WEBHOOK_FUTURE_SKEW_S = 60;
/** Event ids are remembered for as long as their event could still be accepted. */
const SEEN_EVENTS_S = WEBHOOK_MAX_AGE_S + WEBHOOK_FUTURE_SKEW_S;
/** Connections the door refused are remembered this long, so their leave bills nothing. */
const REFUSED_CONNECTIONS_S = 60 * 60;

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

/** Postgres' foreign-key violation, however the driver wraps it. */
const isForeignKeyViolation = (error: unknown): boolean => {
  for (
    let e: unknown = error;
    typeof e === 'object' && e !== null;
    e = (e as { cause?: unknown }).cause
  )
    if ('code' in e && e.code === '23503') return true;
  return false;
};

export interface LivekitEventDeps {
  db: Database;
  livekit: LivekitProvider;
  counters: Counters;
  roomPrefix: string;
  log: FastifyBaseLogger;
  /** A connection left (its usage closed): a floor its user held with no voice left is freed. */
  voiceLeft?: (channelId: number, userId: string) => Promise<void>;
}

/**
 * What a webhook event means: a join is admitted or removed by the voice-access rule, then
 * metered; a leave closes its usage; a published track is kept from people in a block relation
 * with its publisher; a finished room closes what is left of its usage. Returns a line for the
 * log, or undefined if the event is not ours.
 */
export async function handleLivekitEvent(
  deps: LivekitEventDeps,
  event: WebhookEvent,
): Promise<Record<string, unknown> | undefined> {
  const { db, livekit, roomPrefix } = deps;
  const refused = deps.counters.counter('livekit-refused', REFUSED_CONNECTIONS_S);
  const at = dateOf(event.createdAt, new Date());
  switch (event.event) {
    case 'participant_joined': {
      const channelId = channelIdOfLivekitRoom(roomPrefix, event.room?.name);
      if (channelId === undefined || !event.participant) return undefined;
      // Not `<userId>-<time>-<random>`: the server's own listen-only recorder (decision 024), whose
      // token only this server mints. Nobody else can hold an identity of that shape.
      if (userIdFromIdentity(event.participant.identity) === undefined) return undefined;
      const admission = await livekit.admitParticipant(channelId, event.participant);
      const connection = connectionOf(event, roomPrefix);
      if (!admission.admitted || !connection) {
        await refused.penalty(event.participant.sid || event.participant.identity);
        // A press in the moment before this webhook may have been granted on LiveKit's own list.
        if (admission.userId) await deps.voiceLeft?.(channelId, admission.userId);
        return { channelId, identity: event.participant.identity, ...admission };
      }
      const joinedAt = dateOf(event.participant.joinedAt, at);
      const row = await openVoiceUsage(db, connection, joinedAt);
      return { ...connection, admitted: true, canPublish: admission.canPublish, sessionId: row.id };
    }
    // participant_connection_aborted is not metered: such a connection never carried audio.
    case 'participant_left': {
      const connection = connectionOf(event, roomPrefix);
      if (!connection) return undefined;
      if (await refused.get(connection.connectionId))
        return { ...connection, minutes: 0, refusedAtJoin: true };
      const joinedAt = dateOf(event.participant?.joinedAt, at);
      const minutes = await closeVoiceUsage(db, connection, { joinedAt, leftAt: at });
      await deps.voiceLeft?.(connection.channelId, connection.userId);
      return { ...connection, minutes };
    }
    case 'track_published': {
      const channelId = channelIdOfLivekitRoom(roomPrefix, event.room?.name);
      const identity = event.participant?.identity;
      const trackSid = event.track?.sid;
      if (channelId === undefined || !identity || !trackSid) return undefined;
      await livekit.trackPublished(channelId, identity, trackSid);
      return { channelId, identity, trackSid };
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
 * A signed event is taken once, and only while fresh: a replay (same id, or an old `createdAt`) is
 * refused. Ids are remembered in the shared counters, so every instance sees them.
 */
async function refuseReplays(counters: Counters, event: WebhookEvent, now: Date): Promise<void> {
  const createdAt = Number(event.createdAt ?? 0);
  const nowS = now.getTime() / 1000;
  if (!event.id) throw badRequest('Webhook event without an id');
  if (createdAt < nowS - WEBHOOK_MAX_AGE_S || createdAt > nowS + WEBHOOK_FUTURE_SKEW_S)
    throw badRequest('Webhook event too old');
  const seen = await counters.counter('livekit-webhook-event', SEEN_EVENTS_S).penalty(event.id);
  if (seen.consumedPoints > 1) throw new HttpError(409, 'Webhook event already received');
}

/**
 * LiveKit's webhooks are its door and its meter (DESIGN §3 "Voice tokens", "Usage metering").
 * Requests must carry LiveKit's signature over the body and be fresh and new; rooms of other
 * deployments (another prefix) are ignored, since LiveKit sends every room's events to every
 * configured URL. An event about someone deleted meanwhile is answered 200 and logged, so LiveKit
 * does not retry it forever.
 */
export function registerLivekitWebhook(
  app: FastifyInstance,
  livekit: LivekitProvider,
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
      const { counters, database } = app.ctx;
      try {
        await refuseReplays(counters, event, new Date());
      } catch (error) {
        request.log.warn(
          { event: event.event, id: event.id, err: error },
          'livekit webhook refused',
        );
        throw error;
      }
      const deps = {
        db: database.db,
        livekit,
        counters,
        roomPrefix: options.roomPrefix,
        log: request.log,
        voiceLeft: (channelId: number, userId: string) => app.ctx.floor.voiceLeft(channelId, userId),
      };
      try {
        const handled = await handleLivekitEvent(deps, event);
        if (handled)
          request.log.info({ event: event.event, ...handled }, 'livekit webhook handled');
      } catch (error) {
        if (!isForeignKeyViolation(error)) {
          // Not taken: LiveKit's retry of this very event must get through.
          await counters.counter('livekit-webhook-event', SEEN_EVENTS_S).delete(event.id);
          throw error;
        }
        // The user (or their channel) was deleted between the event and now: nothing to bill.
        request.log.warn(
          { event: event.event, identity: event.participant?.identity, err: error },
          'livekit webhook about a deleted user or channel: not metered',
        );
      }
      return { ok: true };
    });
  });
}
