import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { findUserById } from '../users/user-directory.js';
import type { Viewer } from '../users/user-visibility.js';
import { block, hasBlocked, unblock } from './block-store.js';

/** Whoever must act on a block at once: the voice provider stops carrying audio between the two. */
export interface BlockFollower {
  blockChanged(blockerId: string, blockedId: string, blocked: boolean): Promise<void>;
}

/** The user to block or unblock: someone else, who exists. */
async function blockTarget(db: Database, viewer: Viewer, targetId: string): Promise<User> {
  if (targetId === viewer.id) throw badRequest('You cannot block yourself');
  const target = await findUserById(db, targetId, viewer);
  if (!target) throw notFound('User not found');
  return target;
}

/**
 * Idempotent (a second block answers like the first), so double clicks and retries are harmless.
 * The voice server stops carrying either one's audio to the other at once.
 */
export async function blockUser(
  db: Database,
  voice: BlockFollower,
  viewer: Viewer,
  targetId: string,
): Promise<User> {
  const target = await blockTarget(db, viewer, targetId);
  await block(db, viewer.id, target.id);
  await voice.blockChanged(viewer.id, target.id, true);
  return target;
}

/** The two hear each other again, unless the other one blocks the viewer too. */
export async function unblockUser(
  db: Database,
  voice: BlockFollower,
  viewer: Viewer,
  targetId: string,
): Promise<User> {
  const target = await blockTarget(db, viewer, targetId);
  await unblock(db, viewer.id, target.id);
  if (!(await hasBlocked(db, target.id, viewer.id)))
    await voice.blockChanged(viewer.id, target.id, false);
  return target;
}
