import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { findUserById } from '../users/user-directory.js';
import type { Viewer } from '../users/user-visibility.js';
import { block, unblock } from './block-store.js';

/** The user to block or unblock: someone else, who exists. */
async function blockTarget(db: Database, viewer: Viewer, targetId: string): Promise<User> {
  if (targetId === viewer.id) throw badRequest('You cannot block yourself');
  const target = await findUserById(db, targetId, viewer);
  if (!target) throw notFound('User not found');
  return target;
}

/** Idempotent (a second block answers like the first), so double clicks and retries are harmless. */
export async function blockUser(db: Database, viewer: Viewer, targetId: string): Promise<User> {
  const target = await blockTarget(db, viewer, targetId);
  await block(db, viewer.id, target.id);
  return target;
}

export async function unblockUser(db: Database, viewer: Viewer, targetId: string): Promise<User> {
  const target = await blockTarget(db, viewer, targetId);
  await unblock(db, viewer.id, target.id);
  return target;
}
