import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { findUserById } from '../users/user-directory.js';
import { block, unblock } from './block-store.js';

/** The user to block or unblock: someone else, who exists. */
async function blockTarget(db: Database, userId: string, targetId: string): Promise<User> {
  if (targetId === userId) throw badRequest('You cannot block yourself');
  const target = await findUserById(db, targetId);
  if (!target) throw notFound('User not found');
  return target;
}

/** Idempotent (a second block answers like the first), so double clicks and retries are harmless. */
export async function blockUser(db: Database, userId: string, targetId: string): Promise<User> {
  const target = await blockTarget(db, userId, targetId);
  await block(db, userId, target.id);
  return target;
}

export async function unblockUser(db: Database, userId: string, targetId: string): Promise<User> {
  const target = await blockTarget(db, userId, targetId);
  await unblock(db, userId, target.id);
  return target;
}
