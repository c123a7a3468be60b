import { TrackSource, type ParticipantPermission } from 'livekit-server-sdk';
import { mayPublishNow, type VoiceFloorNow } from '../voice-access.js';

/** What a member's LiveKit rights follow: the admin mute and the walkie-talkie floor, now. */
export interface LivekitRightsState {
  muted: boolean;
  floor: VoiceFloorNow;
  /**
   * Armed for an SOS countdown (decision 054): may publish, a muted microphone, until the SOS
   * follows or the arm lapses.
   */
  sosArmed?: boolean;
}

/**
 * The one place a LiveKit participant's rights come from, for tokens and for every permission
 * update (join, admin mute and unmute, floor changes): a microphone and nothing else — no camera,
 * no screen share, no data messages, no metadata — published only while not admin-muted and, in a
 * walkie-talkie channel, only while holding the floor. LiveKit hands a connected participant
 * refreshed tokens with the permissions of the moment, so these bound every later token too.
 */
export function livekitPermission(
  userId: string,
  state: LivekitRightsState,
): Partial<ParticipantPermission> {
  return {
    canSubscribe: true,
    canPublish: state.sosArmed === true || mayPublishNow(userId, state),
    canPublishData: false,
    canPublishSources: [TrackSource.MICROPHONE],
    canUpdateMetadata: false,
    hidden: false,
  };
}
