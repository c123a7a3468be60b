import { asc, eq } from 'drizzle-orm';
import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';

/** The columns of the public user view (spec §3), for selects that return `User` directly. */
export const userViewColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
  subscriptionTier: users.subscriptionTier,
};

export async function listUsers(db: Database): Promise<User[]> {
  return db.select(userViewColumns).from(users).orderBy(asc(users.createdAt), asc(users.id));
}

export async function findUserById(db: Database, id: string): Promise<User | null> {
  const [user] = await db.select(userViewColumns).from(users).where(eq(users.id, id)).limit(1);
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
