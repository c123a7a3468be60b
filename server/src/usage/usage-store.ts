import { and, eq, gte, isNull, lt } from 'drizzle-orm';
import type { Usage } from '../../../protocol/usage.js';
import type { Database } from '../db/database.js';
import { usageSessions, users } from '../db/schema.js';
import { sessionMinutes, usageFigures, utcMonth } from './usage-figures.js';

export type UsageSessionRow = typeof usageSessions.$inferSelect;

/**
 * The user's usage this UTC month. A session counts in the month it started; an open session counts
 * its minutes so far, so the figure moves while someone talks.
 */
export async function usageOf(db: Database, userId: string, now = new Date()): Promise<Usage> {
  const { start, end } = utcMonth(now);
  const rows = await db
    .select({ startedAt: usageSessions.startedAt, endedAt: usageSessions.endedAt, minutes: usageSessions.participantMinutes })
    .from(usageSessions)
    .where(and(eq(usageSessions.userId, userId), gte(usageSessions.startedAt, start), lt(usageSessions.startedAt, end)));
  const total = rows.reduce((sum, row) => sum + (row.minutes ?? sessionMinutes(row.startedAt, row.endedAt ?? now)), 0);
  const [user] = await db.select({ payg: users.payAsYouGoEnabled }).from(users).where(eq(users.id, userId)).limit(1);
  return usageFigures(total, user?.payg ?? false);
}

export async function setPayAsYouGo(db: Database, userId: string, enabled: boolean): Promise<void> {
  await db.update(users).set({ payAsYouGoEnabled: enabled, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function startUsageSession(db: Database, userId: string, channelId: number): Promise<string> {
  const [row] = await db.insert(usageSessions).values({ userId, channelId }).returning({ id: usageSessions.id });
  return row!.id;
}

export async function findUsageSession(db: Database, sessionId: string): Promise<UsageSessionRow | undefined> {
  const [row] = await db.select().from(usageSessions).where(eq(usageSessions.id, sessionId)).limit(1);
  return row;
}

/**
 * Ends a session once: a second end (client cleanup after the server already closed it) changes
 * nothing and reports the minutes fixed the first time.
 */
export async function endUsageSession(
  db: Database,
  session: UsageSessionRow,
  reason: string,
  endedAt = new Date(),
): Promise<number> {
  if (session.endedAt) return session.participantMinutes ?? 0;
  const at = endedAt < session.startedAt ? session.startedAt : endedAt;
  const minutes = sessionMinutes(session.startedAt, at);
  const [updated] = await db
    .update(usageSessions)
    .set({ endedAt: at, participantMinutes: minutes, endReason: reason })
    .where(and(eq(usageSessions.id, session.id), isNull(usageSessions.endedAt)))
    .returning({ minutes: usageSessions.participantMinutes });
  if (updated) return updated.minutes ?? minutes;
  // Someone else ended it between our read and our write: report what they fixed.
  return (await findUsageSession(db, session.id))?.participantMinutes ?? minutes;
}

export async function openUsageSessions(db: Database): Promise<UsageSessionRow[]> {
  return db.select().from(usageSessions).where(isNull(usageSessions.endedAt));
}
