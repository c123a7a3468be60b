import { and, eq, gte, lt } from 'drizzle-orm';
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
    .select({
      startedAt: usageSessions.startedAt,
      endedAt: usageSessions.endedAt,
      minutes: usageSessions.participantMinutes,
    })
    .from(usageSessions)
    .where(
      and(
        eq(usageSessions.userId, userId),
        gte(usageSessions.startedAt, start),
        lt(usageSessions.startedAt, end),
      ),
    );
  const total = rows.reduce(
    (sum, row) => sum + (row.minutes ?? sessionMinutes(row.startedAt, row.endedAt ?? now)),
    0,
  );
  const [user] = await db
    .select({ payg: users.payAsYouGoEnabled })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return usageFigures(total, user?.payg ?? false);
}

export async function setPayAsYouGo(db: Database, userId: string, enabled: boolean): Promise<void> {
  await db
    .update(users)
    .set({ payAsYouGoEnabled: enabled, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Why a client's row bills nothing: no voice connection claimed it. */
export const NOT_CONNECTED = 'not-connected';

/**
 * `POST /api/usage/session/start`: a row for the spec's sessionId, written closed with no minutes.
 * It bills only once the voice server reports a connection that claims it (usage/voice-usage.ts),
 * so starting sessions without talking costs nothing, and talking without one is metered anyway.
 */
export async function startUsageSession(
  db: Database,
  userId: string,
  channelId: number,
): Promise<string> {
  const now = new Date();
  const [row] = await db
    .insert(usageSessions)
    .values({
      userId,
      channelId,
      startedAt: now,
      endedAt: now,
      participantMinutes: 0,
      endReason: NOT_CONNECTED,
    })
    .returning({ id: usageSessions.id });
  return row!.id;
}

export async function findUsageSession(
  db: Database,
  sessionId: string,
): Promise<UsageSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(usageSessions)
    .where(eq(usageSessions.id, sessionId))
    .limit(1);
  return row;
}

/**
 * `POST /api/usage/session/end`: reports the minutes of the voice connection that claimed the row
 * (so far, if it is still on) and changes nothing — the connection's own leave ends it, so a client
 * cannot end its metering early, nor keep it running.
 */
export function reportUsageSession(session: UsageSessionRow, now = new Date()): number {
  if (!session.voiceConnection) return 0;
  return session.participantMinutes ?? sessionMinutes(session.startedAt, session.endedAt ?? now);
}
