import { FREE_TIER_LIMIT_MESSAGE } from '../../../protocol/usage.js';
import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import { liveSessionExpiry } from '../auth/session-store.js';
import { blockRelationsOf } from '../blocking/block-store.js';
import { findChannel, findMembership } from '../channels/membership-store.js';
import type { FloorStore } from '../floor/floor-store.js';
import type { Database } from '../db/database.js';
import { mayConnect } from '../usage/usage-figures.js';
import { usageOf } from '../usage/usage-store.js';
import type { SfuAdmission } from './sfu/embedded-sfu.js';
import type { VerifiedVoiceToken } from './voice-token.js';

/**
 * The built-in SFU's door (issue 12 §5, §6): a token proves who minted it for whom, up to ten
 * minutes ago; the database says whether that still holds. Checked at every join and resume: the
 * sign-in session is live, the user is still a member of the room's channel, within the allowance,
 * whether an admin muted them, (walkie-talkie channels) who holds the floor, and who has a block
 * between them and the user (neither hears the other).
 */
export function admitFromDatabase(
  db: Database,
  floors?: FloorStore,
): (token: VerifiedVoiceToken) => Promise<SfuAdmission> {
  return async (token) => {
    const sessionExpiry = token.sessionId ? await liveSessionExpiry(db, token.sessionId) : null;
    if (!sessionExpiry) {
      return { admitted: false, reason: 'session_ended', message: 'sign in again' };
    }
    const signInExpiresAt = sessionExpiry.getTime();
    const channelId = channelIdOfRoom(token.roomName);
    const membership =
      channelId === undefined ? null : await findMembership(db, channelId, token.userId);
    if (!membership) {
      return { admitted: false, reason: 'not_a_member', message: 'not a member of this channel' };
    }
    if (!mayConnect(await usageOf(db, token.userId))) {
      return { admitted: false, reason: 'over_limit', message: FREE_TIER_LIMIT_MESSAGE };
    }
    const channel = await findChannel(db, membership.channelId);
    const blockedUserIds = await blockRelationsOf(db, token.userId);
    if (channel?.talkMode !== 'walkie')
      return {
        admitted: true,
        muted: membership.isMuted,
        floor: { walkie: false, holderId: null },
        blockedUserIds,
        signInExpiresAt,
      };
    const grant = await floors?.current(membership.channelId);
    return {
      admitted: true,
      muted: membership.isMuted,
      floor: { walkie: true, holderId: grant?.holderId ?? null, expiresAt: grant?.expiresAt ?? null },
      blockedUserIds,
      signInExpiresAt,
    };
  };
}
