import { CONVERSATION_REFUSALS } from '../../../protocol/conversations.js';
import { FREE_TIER_LIMIT_MESSAGE } from '../../../protocol/usage.js';
import { liveSessionExpiry } from '../auth/session-store.js';
import { blockRelationsOf } from '../blocking/block-store.js';
import { findChannel, findMembership, memberIdsOf } from '../memberships/membership-store.js';
import type { Database } from '../db/database.js';
import type { FloorStore } from '../floor/floor-store.js';
import { mayConnect } from '../usage/usage-figures.js';
import { usageOf } from '../usage/usage-store.js';
import { hasLiveSos } from './sos-admission.js';

/** What deciding voice access reads: the database, whether billing limits anyone, the floor. */
export interface VoiceAccessDeps {
  db: Database;
  /** BILLING=on: the free allowance holds people back; off, nobody is ever limited by it. */
  billing: boolean;
  /** Walkie-talkie floors; without it a walkie channel has nobody holding the floor. */
  floors?: Pick<FloorStore, 'current'>;
  /** Whether the user is armed for an SOS countdown in the channel now (decision 054). */
  sosArmed?: (channelId: number, userId: string) => Promise<boolean>;
}

export interface VoiceAccessRequest {
  userId: string;
  channelId: number;
  /** The sign-in session asking (`sessionIdOf`), when the door knows it: it must still be live. */
  sessionId?: string;
}

export interface VoiceFloorNow {
  walkie: boolean;
  holderId: string | null;
  /** When the holder's hold ends at the latest (epoch ms); null while nobody holds it. */
  expiresAt?: number | null;
  /**
   * The holder's is an SOS (decision 050): heard even when admin-muted, and in an open channel the
   * floor is walkie for its seconds.
   */
  sos?: boolean;
}

export type VoiceRefusal = 'session_ended' | 'not_a_member' | 'over_limit' | 'blocked';

export type VoiceAccess =
  | {
      admitted: true;
      /** An admin muted this member in this channel. */
      muted: boolean;
      floor: VoiceFloorNow;
      /** Users this user blocked or was blocked by: neither hears the other. */
      blockedUserIds: string[];
      /** When the asking sign-in session expires (epoch ms), when the door named one. */
      signInExpiresAt?: number;
    }
  | { admitted: false; reason: VoiceRefusal; message: string };

const REFUSALS: Record<VoiceRefusal, string> = {
  session_ended: 'sign in again',
  not_a_member: 'not a member of this channel',
  over_limit: FREE_TIER_LIMIT_MESSAGE,
  blocked: CONVERSATION_REFUSALS.unavailable,
};

const refuse = (reason: VoiceRefusal): VoiceAccess => ({
  admitted: false,
  reason,
  message: REFUSALS[reason],
});

/**
 * Who may be in a channel's voice, decided in one place for every door (usage session start, the
 * token endpoint, the built-in SFU's join and resume, LiveKit's join webhook): the sign-in session
 * is live (when the door knows it), the user is a member of the channel, and — with billing on —
 * within the allowance or on pay-as-you-go; in a direct conversation, no block stands between its
 * two members (either way: a blocked person neither starts nor sends one). Admitted, it also says what the member may do now:
 * the admin mute, the walkie-talkie floor, and whose audio must not pass either way (blocks).
 */
export async function mayOpenVoice(
  deps: VoiceAccessDeps,
  request: VoiceAccessRequest,
): Promise<VoiceAccess> {
  const { db } = deps;
  let signInExpiresAt: number | undefined;
  if (request.sessionId !== undefined) {
    const expiry = await liveSessionExpiry(db, request.sessionId);
    if (!expiry) return refuse('session_ended');
    signInExpiresAt = expiry.getTime();
  }
  const membership = await findMembership(db, request.channelId, request.userId);
  if (!membership) return refuse('not_a_member');
  if (
    deps.billing &&
    !mayConnect(await usageOf(db, request.userId)) &&
    !(await hasLiveSos(db, request.userId, request.channelId))
  )
    return refuse('over_limit');
  const channel = await findChannel(db, request.channelId);
  if (!channel) return refuse('not_a_member');
  const blockedUserIds = await blockRelationsOf(db, request.userId);
  if (channel.kind === 'direct') {
    const members = await memberIdsOf(db, request.channelId);
    if (members.some((id) => blockedUserIds.includes(id))) return refuse('blocked');
  }
  const grant = await deps.floors?.current(request.channelId);
  // An SOS makes even an open channel walkie for its seconds: whoever joins meanwhile hears only it.
  const walkie = channel.talkMode === 'walkie' || grant?.sos === true;
  return {
    admitted: true,
    muted: membership.isMuted,
    floor: walkie
      ? {
          walkie,
          holderId: grant?.holderId ?? null,
          expiresAt: grant?.expiresAt ?? null,
          ...(grant?.sos ? { sos: true } : {}),
        }
      : { walkie, holderId: null },
    blockedUserIds,
    ...(signInExpiresAt === undefined ? {} : { signInExpiresAt }),
  };
}

/**
 * Whether the member may publish now: not admin-muted, and in a walkie channel holding the floor;
 * an SOS holder publishes even when admin-muted.
 */
export function mayPublishNow(
  userId: string,
  state: { muted: boolean; floor: VoiceFloorNow },
): boolean {
  if (state.floor.sos && state.floor.holderId === userId) return true;
  if (state.muted) return false;
  return !state.floor.walkie || state.floor.holderId === userId;
}
