import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import type { CallHistoryEntry, IceServersResponse } from '../../../protocol/calls.js';
import { displayName } from '../../../protocol/user.js';
import { requireUser } from '../auth/require-user.js';
import type { Database } from '../db/database.js';
import { callIceServers } from '../turn/turn-credentials.js';
import { findUserById } from '../users/user-directory.js';
import { GIVEN_UP, recentCalls, type CallRow } from './call-store.js';

export function registerCallRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.callIceServers, async (request, reply) => {
    const user = await requireUser(request);
    // TURN credentials are the caller's own and expire (TURN_TTL): never cached by anyone.
    void reply.header('cache-control', 'no-store');
    return { iceServers: callIceServers(ctx.config, user.id) } satisfies IceServersResponse;
  });

  app.get(API_PATHS.calls, async (request) => {
    const user = await requireUser(request);
    return callHistory(ctx.database.db, user.id);
  });
}

/** The user's recent calls as they saw them: who, when, answered or missed, how long. */
async function callHistory(db: Database, userId: string): Promise<CallHistoryEntry[]> {
  const rows = await recentCalls(db, userId);
  const names = new Map<string, { name: string; imageUrl: string | null }>();
  for (const row of rows) {
    const otherId = row.callerId === userId ? row.receiverId : row.callerId;
    if (names.has(otherId)) continue;
    const other = await findUserById(db, otherId);
    names.set(otherId, {
      name: other ? displayName(other) : '',
      imageUrl: other?.profileImageUrl ?? null,
    });
  }
  return rows.map((row) => entry(row, userId, names));
}

function entry(
  row: CallRow,
  userId: string,
  names: Map<string, { name: string; imageUrl: string | null }>,
): CallHistoryEntry {
  const outgoing = row.callerId === userId;
  const contactId = outgoing ? row.receiverId : row.callerId;
  const contact = names.get(contactId);
  const end = row.endedAt ?? (row.status === 'active' ? new Date() : null);
  const durationSeconds =
    row.answeredAt && end
      ? Math.max(0, Math.round((end.getTime() - row.answeredAt.getTime()) / 1000))
      : 0;
  return {
    callId: row.id,
    direction: outgoing ? 'outgoing' : 'incoming',
    contactId,
    contactName: contact?.name ?? '',
    contactProfileImageUrl: contact?.imageUrl ?? null,
    outcome: outcome(row, outgoing),
    startedAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    durationSeconds,
  };
}

function outcome(row: CallRow, outgoing: boolean): CallHistoryEntry['outcome'] {
  if (row.status === 'ringing' || row.status === 'active') return 'ongoing';
  if (row.answeredAt) return 'answered';
  if (row.status === 'declined') return 'declined';
  // The caller who gave up cancelled it; the receiver missed it all the same.
  if (row.status === 'missed')
    return outgoing && row.endReason === GIVEN_UP ? 'cancelled' : 'missed';
  return 'cancelled';
}
