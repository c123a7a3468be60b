import type { FastifyBaseLogger } from 'fastify';
import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import type { Database } from '../db/database.js';
import type { EmbeddedSfu } from '../voice/sfu/embedded-sfu.js';
import { endSessionsForClosedVoice } from './usage-sweeper.js';

/**
 * Usage sessions end when the built-in SFU connection they metered ends (DESIGN §3 "Usage
 * metering"), even if the browser never says so. Returns the unsubscribe function.
 */
export function meterEmbeddedVoice(
  sfu: EmbeddedSfu,
  db: Database,
  log: FastifyBaseLogger,
): () => void {
  const joinedAt = new Map<string, Date>();
  const offJoined = sfu.on('participantJoined', (event) =>
    joinedAt.set(event.identity, new Date()),
  );
  const offLeft = sfu.on('participantLeft', (event) => {
    const connectedAt = joinedAt.get(event.identity) ?? new Date();
    joinedAt.delete(event.identity);
    const channelId = channelIdOfRoom(event.roomName);
    if (channelId === undefined) return;
    endSessionsForClosedVoice(db, event.userId, channelId, connectedAt).catch((error: unknown) =>
      log.error({ err: error }, 'closing usage sessions after voice left failed'),
    );
  });
  return () => {
    offJoined();
    offLeft();
  };
}
