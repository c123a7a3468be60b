import type { FastifyBaseLogger } from 'fastify';
import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import type { Database } from '../db/database.js';
import type { EmbeddedSfu, SfuConnectionEvent } from './sfu/embedded-sfu.js';
import {
  closeVoiceUsage,
  openVoiceUsage,
  VoiceUserGoneError,
  type VoiceConnection,
} from '../usage/voice-usage.js';

/**
 * Server-authoritative metering for the built-in SFU (decision 016): a participant's
 * join opens its usage record (claiming the client's `session/start` row when there is one) and
 * its leave closes it, whatever the client says or skips. Events of one connection are written in
 * order. Returns the unsubscribe function.
 */
export function meterEmbeddedVoice(
  sfu: EmbeddedSfu,
  db: Database,
  log: FastifyBaseLogger,
  /** A connection's usage row closed: the user may have no voice left in the channel. */
  onLeft?: (channelId: number, userId: string) => Promise<void>,
): () => void {
  const joinedAt = new Map<string, Date>();
  const chains = new Map<string, Promise<unknown>>();
  const inOrder = (connectionId: string, write: () => Promise<unknown>) => {
    const next = (chains.get(connectionId) ?? Promise.resolve())
      .then(write)
      .catch((error: unknown) => {
        // A deleted user's connection: nothing is billed, by design.
        if (error instanceof VoiceUserGoneError)
          log.debug({ connectionId }, 'voice usage of a deleted user dropped');
        else log.error({ err: error }, 'voice usage not recorded');
      });
    chains.set(connectionId, next);
    void next.finally(() => {
      if (chains.get(connectionId) === next) chains.delete(connectionId);
    });
  };
  const connectionOf = (event: SfuConnectionEvent): VoiceConnection | undefined => {
    const channelId = channelIdOfRoom(event.roomName);
    if (channelId === undefined) return undefined;
    const { userId, identity, connectionId } = event;
    return { userId, channelId, identity, connectionId };
  };

  const offJoined = sfu.on('participantJoined', (event) => {
    const connection = connectionOf(event);
    if (!connection) return;
    const at = new Date();
    joinedAt.set(connection.connectionId, at);
    inOrder(connection.connectionId, () => openVoiceUsage(db, connection, at));
  });
  const offLeft = sfu.on('participantLeft', (event) => {
    const connection = connectionOf(event);
    if (!connection) return;
    const leftAt = new Date();
    const times = { joinedAt: joinedAt.get(connection.connectionId) ?? leftAt, leftAt };
    joinedAt.delete(connection.connectionId);
    inOrder(connection.connectionId, async () => {
      await closeVoiceUsage(db, connection, times);
      await onLeft?.(connection.channelId, connection.userId);
    });
  });
  return () => {
    offJoined();
    offLeft();
  };
}
