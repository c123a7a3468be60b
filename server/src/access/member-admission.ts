import { CONVERSATION_REFUSALS } from '../../../protocol/conversations.js';
import { REMOVED_BY_ADMIN_MESSAGE } from '../../../protocol/invites.js';
import type { Queryable } from '../db/database.js';
import { findChannel, insertMembership } from '../memberships/membership-store.js';
import { clearRemoval, standingRemoval } from '../memberships/removal-store.js';
import { forbidden } from '../http/errors.js';

/** Every way someone becomes a member of an existing channel. */
export type MemberDoor =
  /** A channel admin or a superadmin adds them, by user id or by address (the contact picker). */
  | { kind: 'added-by-admin' }
  /** A member-tier user adds themselves, by user id or by their own address. */
  | { kind: 'self-join' }
  /** They redeem an invite link minted at `mintedAt`. */
  | { kind: 'invite'; mintedAt: Date };

/** Whether the door lets in someone removed at `removedAt` (decision 013). */
function overridesRemoval(door: MemberDoor, removedAt: Date): boolean {
  switch (door.kind) {
    case 'added-by-admin':
      return true;
    case 'self-join':
      return false;
    case 'invite':
      // A link made at or before the removal is one they may have kept: only a newer one readmits.
      return door.mintedAt.getTime() > removedAt.getTime();
  }
}

/**
 * Who may be a member: the one rule every door passes, inside the transaction that makes the
 * membership. Nobody joins a direct conversation. A removal by someone else stands until a channel admin adds them again or they redeem
 * an invite minted after it; then it is cleared, and it no longer stands. Refuses with 403 otherwise.
 * Answers whether a membership was made (false: they already were a member).
 */
export async function admitMember(
  tx: Queryable,
  channelId: number,
  userId: string,
  door: MemberDoor,
): Promise<boolean> {
  // A direct conversation's two members are its only ones, for good (decision 039).
  if ((await findChannel(tx, channelId))?.kind === 'direct')
    throw forbidden(CONVERSATION_REFUSALS.groupOnly);
  const removedAt = await standingRemoval(tx, channelId, userId);
  if (removedAt && !overridesRemoval(door, removedAt)) throw forbidden(REMOVED_BY_ADMIN_MESSAGE);
  const isNew = await insertMembership(tx, channelId, userId);
  if (isNew && removedAt) await clearRemoval(tx, channelId, userId);
  return isNew;
}
