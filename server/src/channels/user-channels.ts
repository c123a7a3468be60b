import type { Channel } from '../../../protocol/channels.js';
import { listChannelsOf } from './channel-store.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { findUserById } from '../users/user-directory.js';

/** A missing user is 404 rather than an empty list, so a superadmin's typo is not mistaken for "no channels". */
export async function channelsOfUser(db: Database, userId: string): Promise<Channel[]> {
  if (!(await findUserById(db, userId))) throw notFound('User not found');
  return listChannelsOf(db, userId);
}
