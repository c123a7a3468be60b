import { asc, eq } from 'drizzle-orm';
import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { userViewFor, type Viewer } from './user-visibility.js';

/** The columns of the public user view (spec §3), for selects that return `User` directly. */
export const userViewColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
  subscriptionTier: users.subscriptionTier,
};

/** Every user, with e-mails only where `viewer` may see them (decision record 014). */
export async function listUsers(db: Database, viewer: Viewer): Promise<User[]> {
  return db.select(userViewFor(viewer)).from(users).orderBy(asc(users.createdAt), asc(users.id));
}

export async function findUserById(db: Database, id: string, viewer?: Viewer): Promise<User | null> {
  const columns = viewer ? userViewFor(viewer) : userViewColumns;
  const [user] = await db.select(columns).from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

/** Emails are unique in practice (one account per address at the built-in provider) but not by schema. */
export async function findUserByEmail(db: Database, email: string): Promise<User | null> {
  const [user] = await db
    .select(userViewColumns)
    .from(users)
    .where(eq(users.email, email))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return user ?? null;
}
