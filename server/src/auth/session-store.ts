import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { preparedPerDatabase } from '../db/prepared-query.js';
import { sessions, users } from '../db/schema.js';

export const SESSION_COOKIE = 'chirp_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * A session's id as the server refers to it (sockets, voice tokens, the bus): the hash stored in the
 * table, never the cookie's token, from which it cannot be turned back.
 */
export const sessionIdOf = hash;

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

export interface FoundSession {
  user: SessionUser;
  idToken: string | null;
  /** `sessionIdOf(token)`. */
  sessionId: string;
  expiresAt: Date;
}

/** Every request and socket open reads its session: built once, run with the token's hash. */
const sessionByHash = preparedPerDatabase((db) =>
  db
    .select({
      user: users,
      idToken: sessions.idToken,
      sessionId: sessions.idHash,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder('idHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('find_session'),
);

export async function findSession(db: Database, token: string): Promise<FoundSession | null> {
  // A placeholder's value is not mapped by its column: give the timestamp as the driver takes it.
  const rows = await sessionByHash(db).execute({
    idHash: hash(token),
    now: new Date().toISOString(),
  });
  return rows[0] ?? null;
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, hash(token)));
}

/** Deletes expired sessions; returns which they were, so their sockets and voice end everywhere. */
export async function deleteExpiredSessions(
  db: Database,
  now = new Date(),
): Promise<{ sessionId: string; userId: string }[]> {
  return db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ sessionId: sessions.idHash, userId: sessions.userId });
}

/** When a live session (by `sessionIdOf`) expires; null when it ended or expired. */
export async function liveSessionExpiry(db: Database, sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.idHash, sessionId), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row?.expiresAt ?? null;
}

/** Whether a session (by `sessionIdOf`) still exists and has not expired. */
export async function isSessionLive(db: Database, sessionId: string): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.idHash })
    .from(sessions)
    .where(and(eq(sessions.idHash, sessionId), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return rows.length > 0;
}
