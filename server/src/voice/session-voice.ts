import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import type { FloorService } from '../floor/floor-service.js';
import type { SessionEnd } from '../realtime/session-control.js';
import { sessionOfIdentity } from './livekit/livekit-identities.js';
import type { LivekitUserRemoval } from './livekit/livekit-user-removal.js';
import type { Voice } from './voice.js';

/**
 * Voice follows the sign-in (decision 028): when a session or all of a user's sessions end —
 * however they end — every instance ends that voice on the built-in SFU it holds, and LiveKit's
 * participants of the user leave every room of the deployment. Channels deleted with an account
 * close their rooms and floors. Called on every instance for every end heard on the bus.
 *
 * On LiveKit, the app keeps which sign-in session minted each identity (rows that go with their
 * session): a session's end removes the user's participants whose session is gone, and keeps those
 * of their other, live sessions (and of the one a password change kept).
 */
export function endVoiceOfSession(deps: {
  db: Database;
  voice: Voice;
  floor: FloorService;
  livekit: LivekitUserRemoval | undefined;
  log: FastifyBaseLogger;
}): (ended: SessionEnd) => void {
  const { db, voice, floor, livekit, log } = deps;
  /** A participant stays while the sign-in that minted its identity lives (and is not the ended one). */
  const keepFor = (ended: SessionEnd) => async (identity: string) => {
    if (ended.kind === 'user_ended' && ended.exceptSessionId === undefined) return false;
    const owner = await sessionOfIdentity(db, identity);
    if (!owner) return false;
    if (ended.kind === 'session_ended') return owner.sessionId !== ended.sessionId;
    return owner.sessionId === ended.exceptSessionId;
  };
  const failed = (what: string) => (error: unknown) => log.error({ err: error }, what);
  return (ended) => {
    if (ended.kind === 'session_ended') voice.sfu?.disconnectSignInSession(ended.sessionId);
    else voice.sfu?.disconnectSignedOutUser(ended.userId, ended.exceptSessionId);
    const userId = ended.userId;
    if (livekit && userId !== undefined) {
      livekit(userId, keepFor(ended)).then(
        (removed) => {
          if (removed > 0) log.info({ userId, removed }, 'signed-out user removed from LiveKit');
        },
        failed('signed-out user not removed from LiveKit'),
      );
    }
    if (ended.kind !== 'user_ended') return;
    for (const channelId of ended.closedChannelIds ?? []) {
      // Every instance hears this: each closes the room its own SFU holds (LiveKit's is shared).
      if (voice.sfu) voice.sfu.closeRoom(voice.provider.roomName(channelId));
      else voice.provider.closeRoom(channelId).catch(failed('deleted channel voice room not closed'));
      floor.channelDeleted(channelId).catch(failed('deleted channel floor not cleared'));
    }
    // Gone from the channels they were in: a floor they hold there ends, an SOS too (nobody is
    // left to speak for it, and its alert stays for the others to resolve).
    for (const channelId of ended.leftChannelIds ?? [])
      floor.userSilenced(channelId, ended.userId).catch(failed('deleted user floor not ended'));
  };
}
