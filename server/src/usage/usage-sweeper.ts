import type { FastifyBaseLogger } from 'fastify';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { usageSessions } from '../db/schema.js';
import type { PresenceReader } from '../presence/presence-reader.js';
import { endUsageSession, openUsageSessions } from './usage-store.js';

/** DESIGN §3: a session ends when the server has missed the user's socket for this long. */
export const SOCKET_GONE_GRACE_MS = 2 * 60 * 1000;

/**
 * Closes usage sessions whose user has had no `/ws` socket anywhere for two minutes, billing up to
 * when the socket went, so a crashed tab is never billed forever. Safe on several instances: ending
 * is idempotent.
 */
export class UsageSweeper {
  private readonly absentSince = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly presence: PresenceReader,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
    private readonly graceMs = SOCKET_GONE_GRACE_MS,
  ) {}

  async sweep(): Promise<number> {
    const open = await openUsageSessions(this.db);
    const stillOpen = new Set(open.map((s) => s.id));
    for (const id of this.absentSince.keys()) if (!stillOpen.has(id)) this.absentSince.delete(id);
    let ended = 0;
    for (const session of open) {
      const live = await this.presence.presenceIn(session.channelId ?? 0, [session.userId]);
      if (live.get(session.userId)?.isOnline) {
        this.absentSince.delete(session.id);
        continue;
      }
      const since = this.absentSince.get(session.id) ?? this.now();
      this.absentSince.set(session.id, since);
      if (this.now() - since < this.graceMs) continue;
      const minutes = await endUsageSession(this.db, session, 'socket-gone', new Date(since));
      this.absentSince.delete(session.id);
      ended++;
      this.log.info({ sessionId: session.id, userId: session.userId, minutes }, 'usage session closed: socket gone');
    }
    return ended;
  }
}

/**
 * The voice connection that a usage session metered has closed: end the sessions of that user and
 * channel that began before the connection did (a reconnect's newer session stays open).
 */
export async function endSessionsForClosedVoice(
  db: Database,
  userId: string,
  channelId: number,
  connectedAt: Date,
): Promise<number> {
  const sessions = await db
    .select()
    .from(usageSessions)
    .where(
      and(
        eq(usageSessions.userId, userId),
        eq(usageSessions.channelId, channelId),
        isNull(usageSessions.endedAt),
        lte(usageSessions.startedAt, connectedAt),
      ),
    );
  for (const session of sessions) await endUsageSession(db, session, 'voice-closed');
  return sessions.length;
}
