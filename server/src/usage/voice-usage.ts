import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { usageSessions, users } from '../db/schema.js';
import { sessionMinutes } from './usage-figures.js';
import type { UsageSessionRow } from './usage-store.js';

/**
 * Metering from the voice server itself (DESIGN §3 "Usage metering", decisions 016 and 017): the provider
 * reports each connection as it joins and leaves (LiveKit's webhooks; the built-in SFU's events), so
 * no client can talk unmetered and nobody is billed for time they were not connected.
 *
 * A report first claims the row the client opened with `POST /api/usage/session/start` for that
 * user and channel (so the spec's sessionId and its 429 stay meaningful), else opens its own. From
 * then on the voice server's times win: the row starts when the connection joined and ends when it
 * left, whatever the client said. Every function is idempotent and order-tolerant, because
 * webhooks can arrive twice (one per configured URL, or on retry), late, or out of order.
 */
export interface VoiceConnection {
  userId: string;
  channelId: number;
  /** The voice token identity `<userId>-<ms>-<random>`. */
  identity: string;
  /** Unique per connection (LiveKit's participant sid): a reconnect with the same identity is a new one. */
  connectionId: string;
}

/**
 * A client row closed this long before the connection joined is not the one it belongs to. Client
 * rows are written closed (they bill nothing until claimed), and a token request plus a connection
 * attempt may take 25 s (spec §9).
 */
const CLAIM_WINDOW_MS = 60_000;

async function rowOf(db: Database, connectionId: string): Promise<UsageSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(usageSessions)
    .where(eq(usageSessions.voiceConnection, connectionId))
    .limit(1);
  return row;
}

/**
 * The connection's user was deleted (their usage rows went with them): there is nothing left to
 * bill, and nothing to record. Reports about them are dropped.
 */
export class VoiceUserGoneError extends Error {
  override readonly name = 'VoiceUserGoneError';
}

/**
 * The connection's row: the existing one, else the newest unclaimed client row of that user and
 * channel (open, or closed by the client just before the report came), else a new one; undefined
 * when the user no longer exists.
 */
async function claimOrOpen(
  db: Database,
  connection: VoiceConnection,
  joinedAt: Date,
): Promise<UsageSessionRow | undefined> {
  const existing = await rowOf(db, connection.connectionId);
  if (existing) return existing;
  const [candidate] = await db
    .select({ id: usageSessions.id })
    .from(usageSessions)
    .where(
      and(
        eq(usageSessions.userId, connection.userId),
        eq(usageSessions.channelId, connection.channelId),
        isNull(usageSessions.voiceConnection),
        or(
          isNull(usageSessions.endedAt),
          gte(usageSessions.endedAt, new Date(joinedAt.getTime() - CLAIM_WINDOW_MS)),
        ),
      ),
    )
    .orderBy(desc(usageSessions.startedAt))
    .limit(1);
  const claim = {
    voiceIdentity: connection.identity,
    voiceConnection: connection.connectionId,
    startedAt: joinedAt,
    lastSeenAt: joinedAt,
  };
  try {
    if (candidate) {
      const [claimed] = await db
        .update(usageSessions)
        // Reopened: a client row closed before the join report is now the connection's, and the
        // voice server will say when it ends.
        .set({ ...claim, endedAt: null, participantMinutes: null, endReason: null })
        .where(and(eq(usageSessions.id, candidate.id), isNull(usageSessions.voiceConnection)))
        .returning();
      if (claimed) return claimed;
    }
    const opened = await insertRow(db, connection, claim);
    if (opened === 'user_gone') return undefined;
    if (opened) return opened;
  } catch (error) {
    // Another report of the same connection claimed a row between our read and our write.
    const raced = await rowOf(db, connection.connectionId);
    if (raced) return raced;
    throw error;
  }
  const raced = await rowOf(db, connection.connectionId);
  if (!raced) throw new Error(`usage row for voice connection ${connection.connectionId} vanished`);
  return raced;
}

/**
 * Postgres' foreign-key violation: the channel was deleted before its room's report came in, or
 * the user was.
 */
const isForeignKeyViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (('code' in error && error.code === '23503') ||
    ('cause' in error && error.cause !== error && isForeignKeyViolation(error.cause)));

async function userExists(db: Database, userId: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return rows.length > 0;
}

async function insertRow(
  db: Database,
  connection: VoiceConnection,
  claim: { voiceIdentity: string; voiceConnection: string; startedAt: Date; lastSeenAt: Date },
): Promise<UsageSessionRow | undefined | 'user_gone'> {
  const insert = (channelId: number | null) =>
    db
      .insert(usageSessions)
      .values({ userId: connection.userId, channelId, ...claim })
      .onConflictDoNothing()
      .returning();
  try {
    return (await insert(connection.channelId))[0];
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    // A deleted user's connection (their rows went with them): nothing to bill, and no error.
    if (!(await userExists(db, connection.userId))) return 'user_gone';
    // Still billed: the time was spent; the row just no longer names a channel, as after a deletion.
    try {
      return (await insert(null))[0];
    } catch (again) {
      if (isForeignKeyViolation(again) && !(await userExists(db, connection.userId))) return 'user_gone';
      throw again;
    }
  }
}

/**
 * The voice server says the connection joined: its row is open from `joinedAt`. Rejects with
 * `VoiceUserGoneError` when the user was deleted.
 */
export async function openVoiceUsage(
  db: Database,
  connection: VoiceConnection,
  joinedAt: Date,
): Promise<UsageSessionRow> {
  const row = await claimOrOpen(db, connection, joinedAt);
  if (!row) throw new VoiceUserGoneError(`voice connection of a deleted user: ${connection.identity}`);
  return row;
}

/**
 * The voice server says the connection left: its row ends at `leftAt` (even if the client already
 * ended it at another time). A leave reported before, or instead of, the join opens the row from
 * `joinedAt` first. Returns the row's minutes (0 for a deleted user).
 */
export async function closeVoiceUsage(
  db: Database,
  connection: VoiceConnection,
  times: { joinedAt: Date; leftAt: Date },
  reason = 'voice-left',
): Promise<number> {
  const row = await claimOrOpen(db, connection, times.joinedAt);
  // The user was deleted: their rows went with them, and this time is billed to nobody.
  if (!row) return 0;
  const endedAt = times.leftAt < row.startedAt ? row.startedAt : times.leftAt;
  const minutes = sessionMinutes(row.startedAt, endedAt);
  await db
    .update(usageSessions)
    .set({ endedAt, participantMinutes: minutes, endReason: reason })
    .where(eq(usageSessions.id, row.id));
  return minutes;
}

/**
 * The room is gone (LiveKit's room_finished, or the channel's room closed): every connection row of
 * it still open ends at `finishedAt`. Client rows never claimed by a connection are left to their
 * client and the sweeper. Returns how many rows it ended.
 */
export async function closeRoomUsage(
  db: Database,
  channelId: number,
  finishedAt: Date,
  reason = 'room-finished',
): Promise<number> {
  const open = await db
    .select()
    .from(usageSessions)
    .where(
      and(
        eq(usageSessions.channelId, channelId),
        isNull(usageSessions.endedAt),
        isNotNull(usageSessions.voiceConnection),
      ),
    );
  for (const row of open) {
    const endedAt = finishedAt < row.startedAt ? row.startedAt : finishedAt;
    await db
      .update(usageSessions)
      .set({
        endedAt,
        participantMinutes: sessionMinutes(row.startedAt, endedAt),
        endReason: reason,
      })
      .where(and(eq(usageSessions.id, row.id), isNull(usageSessions.endedAt)));
  }
  return open.length;
}

/**
 * The voice server still carries these connections (the built-in SFU holds them; LiveKit lists
 * them): their open rows were seen `at`. After a crash nothing moves `lastSeenAt`, and
 * `closeUnseenVoiceUsage` ends the rows there, so the downtime is never billed.
 */
export async function touchVoiceUsage(
  db: Database,
  seen: { connectionIds: string[] },
  at: Date,
): Promise<void> {
  if (seen.connectionIds.length === 0) return;
  await db
    .update(usageSessions)
    .set({ lastSeenAt: at })
    .where(
      and(
        isNull(usageSessions.endedAt),
        isNotNull(usageSessions.voiceConnection),
        inArray(usageSessions.voiceConnection, seen.connectionIds),
      ),
    );
}

/**
 * Ends the open connection rows this server has not seen since `cutoff`, at the last time it saw
 * them (DESIGN §3: two minutes without the user; never the time the server itself was down).
 */
export async function closeUnseenVoiceUsage(
  db: Database,
  cutoff: Date,
  reason = 'connection-lost',
): Promise<number> {
  const lastSeen = sql`coalesce(${usageSessions.lastSeenAt}, ${usageSessions.startedAt})`;
  const stale = await db
    .select()
    .from(usageSessions)
    .where(and(isNull(usageSessions.endedAt), lt(lastSeen, cutoff)));
  for (const row of stale) {
    const endedAt = row.lastSeenAt ?? row.startedAt;
    await db
      .update(usageSessions)
      .set({
        endedAt,
        participantMinutes: sessionMinutes(row.startedAt, endedAt),
        endReason: reason,
      })
      .where(and(eq(usageSessions.id, row.id), isNull(usageSessions.endedAt)));
  }
  return stale.length;
}
