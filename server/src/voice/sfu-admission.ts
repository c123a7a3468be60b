import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import type { SfuAdmission, SfuToken } from './sfu/embedded-sfu.js';
import { mayOpenVoice, type VoiceAccessDeps } from './voice-access.js';

/**
 * The built-in SFU's door: a token proves who minted it for whom, up to ten minutes ago; the
 * shared voice-access rule says whether that still holds, at every join and resume. A built-in SFU
 * token always names its sign-in session; one that does not is refused.
 */
export function admitFromDatabase(
  deps: VoiceAccessDeps,
): (token: SfuToken) => Promise<SfuAdmission> {
  return async (token) => {
    if (!token.sessionId)
      return { admitted: false, reason: 'session_ended', message: 'sign in again' };
    const channelId = channelIdOfRoom(token.roomName);
    if (channelId === undefined)
      return { admitted: false, reason: 'not_a_member', message: 'not a member of this channel' };
    const access = await mayOpenVoice(deps, {
      userId: token.userId,
      channelId,
      sessionId: token.sessionId,
    });
    if (!access.admitted) return access;
    return {
      admitted: true,
      muted: access.muted,
      floor: access.floor,
      blockedUserIds: access.blockedUserIds,
      signInExpiresAt: access.signInExpiresAt,
    };
  };
}
