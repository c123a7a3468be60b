import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { sessions, users } from '../db/schema.js';

export const SESSION_COOKIE = 'chirp_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** What the sessions table stores for a cookie token. */
export const sessionIdHash = hash;

export type SessionUser = typeof users.$inferSelect;

/** Creates a fresh session (a new id every sign-in) and returns the token for the cookie. */
export async function createSession(
  db: Database,
  userId: string,
  idToken: string | undefined,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    idHash: hash(token),
    userId,
    idToken: idToken ?? null,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

export async function findSession(
  db: Database,
  token: string,
): Promise<{ user: SessionUser; idToken: string | null } | null> {
  const rows = await db
    .select({ user: users, idToken: sessions.idToken })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, hash(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return rows[0] ?? null;
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, hash(token)));
}

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
