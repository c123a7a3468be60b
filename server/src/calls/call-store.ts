import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.js';
import { preparedPerDatabase } from '../db/prepared-query.js';
import { calls, type CALL_STATUSES } from '../db/schema.js';

export type CallRow = typeof calls.$inferSelect;
export type CallStatus = (typeof CALL_STATUSES)[number];

const LIVE: CallStatus[] = ['ringing', 'active'];

/**
 * The end reason of a call its caller hung up while it rang: missed for the receiver, cancelled in
 * the caller's own history.
 */
export const GIVEN_UP = 'given_up';

export type StartOutcome = 'created' | 'busy' | 'taken';

/**
 * Records a new ringing call unless either party is already in one ('busy') or the id or room name
 * is taken. Both users are locked for the transaction, so two calls racing towards the same person
 * (on any instance) cannot both ring.
 */
export async function startCall(
  db: Database,
  call: { id: string; roomName: string; callerId: string; receiverId: string },
): Promise<StartOutcome> {
  return db.transaction(async (tx) => {
    for (const userId of [call.callerId, call.receiverId].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`call:${userId}`}))`);
    }
    if (await inLiveCall(tx, [call.callerId, call.receiverId])) return 'busy';
    const inserted = await tx
      .insert(calls)
      .values({ ...call, status: 'ringing' })
      .onConflictDoNothing()
      .returning({ id: calls.id });
    return inserted.length === 1 ? 'created' : 'taken';
  });
}

export async function findCall(db: Database, id: string): Promise<CallRow | null> {
  const [row] = await db.select().from(calls).where(eq(calls.id, id)).limit(1);
  return row ?? null;
}

export async function findCallByRoom(db: Database, roomName: string): Promise<CallRow | null> {
  const [row] = await db.select().from(calls).where(eq(calls.roomName, roomName)).limit(1);
  return row ?? null;
}

/** Whether either user is in a ringing or active call. */
export async function inLiveCall(db: Queryable, userIds: readonly string[]): Promise<boolean> {
  const [row] = await db
    .select({ id: calls.id })
    .from(calls)
    .where(
      and(
        inArray(calls.status, LIVE),
        or(inArray(calls.callerId, [...userIds]), inArray(calls.receiverId, [...userIds])),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Read on every socket open and close: built once, run with the user's id. */
const liveCallsOfUser = preparedPerDatabase((db) =>
  db
    .select()
    .from(calls)
    .where(
      and(
        inArray(calls.status, LIVE),
        or(
          eq(calls.callerId, sql.placeholder('userId')),
          eq(calls.receiverId, sql.placeholder('userId')),
        ),
      ),
    )
    .prepare('live_calls_of'),
);

export async function liveCallsOf(db: Database, userId: string): Promise<CallRow[]> {
  return liveCallsOfUser(db).execute({ userId });
}

/** The parties of every ringing or active call (read once at start, for the live-call marks). */
export async function allLiveCalls(db: Database): Promise<{ callerId: string; receiverId: string }[]> {
  return db
    .select({ callerId: calls.callerId, receiverId: calls.receiverId })
    .from(calls)
    .where(inArray(calls.status, LIVE));
}

/**
 * Moves a call from one of `from` to `to`. The `where status` guard makes the database the single
 * authority: of two instances (or two devices) racing, exactly one gets the row back.
 */
export async function transition(
  db: Database,
  id: string,
  from: readonly CallStatus[],
  to: CallStatus,
  endReason?: string,
): Promise<CallRow | null> {
  const now = new Date();
  const stamps =
    to === 'active' ? { answeredAt: now } : { endedAt: now, endReason: endReason ?? to };
  const [row] = await db
    .update(calls)
    .set({ status: to, ...stamps })
    .where(and(eq(calls.id, id), inArray(calls.status, [...from])))
    .returning();
  return row ?? null;
}

export async function recentCalls(db: Database, userId: string, limit = 50): Promise<CallRow[]> {
  return db
    .select()
    .from(calls)
    .where(or(eq(calls.callerId, userId), eq(calls.receiverId, userId)))
    .orderBy(desc(calls.createdAt))
    .limit(limit);
}
