import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, exists, gt, gte, inArray, isNull, lt, lte, not, notExists, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Transmission, TransmissionsResponse } from '../../../protocol/transmissions.js';
import { displayName } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { blocks, channelMembers, channels, sosAlerts, transmissions, users } from '../db/schema.js';
import type { AudioRef, StoredAudio, TransmissionAudioStore } from './audio-store/transmission-audio-store.js';
import type { FinishedTransmission } from './transmission-recording.js';

export interface TransmissionStoreOptions {
  db: Database;
  /** Where the audio lives: the database or an S3-compatible bucket, the same for every instance. */
  audio: TransmissionAudioStore;
  retentionHours: number;
  maxBytesPerChannel: number;
  log: FastifyBaseLogger;
}

/** The transmission's speaker and the user have no block between them, either way. */
function notBlockedBetween(db: Database, userId: string) {
  return notExists(
    db
      .select({ one: sql`1` })
      .from(blocks)
      .where(
        or(
          and(eq(blocks.blockerId, userId), eq(blocks.blockedId, transmissions.speakerId)),
          and(eq(blocks.blockedId, userId), eq(blocks.blockerId, transmissions.speakerId)),
        ),
      ),
  );
}

/** The transmission was said in an SOS whose alert is not resolved yet (decision 050): it stays. */
function inUnresolvedSos(db: Database) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(sosAlerts)
      .where(and(eq(sosAlerts.id, transmissions.sosAlertId), isNull(sosAlerts.resolvedAt))),
  );
}

/** A transmission may start this long before its SOS was raised (the floor, then the first packet). */
const SOS_START_SLACK_MS = 2_000;

/**
 * Which of a channel's transmissions (oldest first) go so that the rest fit in `maxBytes`: always
 * the oldest of whoever keeps the most bytes, so one speaker's flood pushes out their own
 * transmissions, never everyone else's.
 */
export function overLimit(
  rows: readonly { id: string; speakerId: string; bytes: number }[],
  maxBytes: number,
): string[] {
  const bySpeaker = new Map<string, { bytes: number; rows: { id: string; bytes: number }[] }>();
  let total = 0;
  for (const row of rows) {
    let speaker = bySpeaker.get(row.speakerId);
    if (!speaker) bySpeaker.set(row.speakerId, (speaker = { bytes: 0, rows: [] }));
    speaker.bytes += row.bytes;
    speaker.rows.push(row);
    total += row.bytes;
  }
  const over: string[] = [];
  while (total > maxBytes) {
    let biggest: { bytes: number; rows: { id: string; bytes: number }[] } | undefined;
    for (const speaker of bySpeaker.values())
      if (speaker.rows.length > 0 && (!biggest || speaker.bytes > biggest.bytes)) biggest = speaker;
    const oldest = biggest?.rows.shift();
    if (!biggest || !oldest) break;
    biggest.bytes -= oldest.bytes;
    total -= oldest.bytes;
    over.push(oldest.id);
  }
  return over;
}

/**
 * Kept walkie-talkie transmissions: a row per transmission and its Ogg Opus audio in the audio store
 * (see `TransmissionAudioStore`), kept and deleted together, so any instance plays what any recorded.
 */
export class TransmissionStore {
  constructor(private readonly options: TransmissionStoreOptions) {}

  get retentionHours(): number {
    return this.options.retentionHours;
  }

  /** `keepTransmission`, answering only whether it was kept. */
  async keep(
    channelId: number,
    transmission: FinishedTransmission,
    heardBy: string[],
  ): Promise<boolean> {
    return (await this.keepTransmission(channelId, transmission, heardBy)) !== null;
  }

  /**
   * Keeps a finished transmission when its channel is a walkie-talkie channel that keeps them and
   * the speaker is still a member; past the channel's size limit, the biggest speaker's oldest go
   * (see `overLimit`), never one of an unresolved SOS. Said in the speaker's SOS (decision 050), it
   * is kept whatever the channel's mode or keeping, linked to the alert. Null when not kept.
   */
  async keepTransmission(
    channelId: number,
    transmission: FinishedTransmission,
    heardBy: string[],
  ): Promise<{ id: string; sosAlertId: string | null } | null> {
    const { db, maxBytesPerChannel } = this.options;
    const [channel] = await db
      .select({ talkMode: channels.talkMode, keep: channels.keepTransmissions })
      .from(channels)
      .innerJoin(channelMembers, eq(channelMembers.channelId, channels.id))
      .where(and(eq(channels.id, channelId), eq(channelMembers.userId, transmission.speakerId)))
      .limit(1);
    if (!channel) return null;
    const sosAlertId = await this.sosAlertOf(channelId, transmission);
    if (sosAlertId === null && (channel.talkMode !== 'walkie' || !channel.keep)) return null;
    const bytes = transmission.ogg.length;
    if (bytes > maxBytesPerChannel) return null;

    const ref = { id: randomUUID(), channelId };
    const evicted = await this.options.audio.keep(ref, transmission.ogg, {
      insertRow: async (tx) => {
        await tx.insert(transmissions).values({
          id: ref.id,
          channelId,
          speakerId: transmission.speakerId,
          startedAt: transmission.startedAt,
          durationMs: transmission.durationMs,
          bytes,
          heardBy,
          sosAlertId,
        });
      },
      rest: async (tx) => {
        const rows = await tx
          .select({
            id: transmissions.id,
            speakerId: transmissions.speakerId,
            bytes: transmissions.bytes,
          })
          .from(transmissions)
          .where(and(eq(transmissions.channelId, channelId), not(inUnresolvedSos(db))))
          .orderBy(asc(transmissions.startedAt), asc(transmissions.id));
        const over = overLimit(rows, maxBytesPerChannel);
        if (over.length > 0) await tx.delete(transmissions).where(inArray(transmissions.id, over));
        return over.map((id) => ({ id, channelId }));
      },
    });
    await this.audioDeleted(evicted);
    if (evicted.some((gone) => gone.id === ref.id)) return null;
    return { id: ref.id, sosAlertId };
  }

  /**
   * The speaker's SOS this transmission was said in, if any: one whose talk time it started in (a
   * resolved one too: resolving ends the SOS floor, and so the recording, just after).
   */
  private async sosAlertOf(channelId: number, transmission: FinishedTransmission): Promise<string | null> {
    const [alert] = await this.options.db
      .select({ id: sosAlerts.id })
      .from(sosAlerts)
      .where(
        and(
          eq(sosAlerts.channelId, channelId),
          eq(sosAlerts.senderId, transmission.speakerId),
          lte(sosAlerts.raisedAt, new Date(transmission.startedAt.getTime() + SOS_START_SLACK_MS)),
          gte(sosAlerts.talkUntil, transmission.startedAt),
        ),
      )
      .orderBy(desc(sosAlerts.raisedAt))
      .limit(1);
    return alert?.id ?? null;
  }

  /** An alert's kept audio, oldest first (every member of its channel plays it, blocks or not: decision 051). */
  async ofSosAlert(alertId: string): Promise<{ id: string; durationMs: number }[]> {
    return this.options.db
      .select({ id: transmissions.id, durationMs: transmissions.durationMs })
      .from(transmissions)
      .where(eq(transmissions.sosAlertId, alertId))
      .orderBy(asc(transmissions.startedAt), asc(transmissions.id));
  }

  /** The channel's kept transmissions, oldest first, and which of them the user missed. */
  async list(channelId: number, userId: string, now = new Date()): Promise<TransmissionsResponse> {
    const { db } = this.options;
    const [member] = await db
      .select({ joinedAt: channelMembers.joinedAt, seenAt: channelMembers.transmissionsSeenAt })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
      .limit(1);
    const rows = await db
      .select({ row: transmissions, speaker: users })
      .from(transmissions)
      .innerJoin(users, eq(users.id, transmissions.speakerId))
      .where(
        and(
          eq(transmissions.channelId, channelId),
          or(gt(transmissions.startedAt, this.cutoff(now)), inUnresolvedSos(db)),
          // A block either way: they do not hear each other live (DESIGN §3), nor in replay.
          notBlockedBetween(db, userId),
        ),
      )
      .orderBy(asc(transmissions.startedAt), asc(transmissions.id));
    const seenAfter = member ? (member.seenAt ?? member.joinedAt) : now;
    const list: Transmission[] = rows.map(({ row, speaker }) => ({
      id: row.id,
      speaker: { id: speaker.id, name: displayName(speaker) },
      startedAt: row.startedAt.toISOString(),
      durationMs: row.durationMs,
      missed:
        row.speakerId !== userId && !row.heardBy.includes(userId) && row.startedAt > seenAfter,
      ...(row.sosAlertId === null ? {} : { sos: true }),
    }));
    return {
      transmissions: list,
      missed: list.filter((t) => t.missed).length,
      retentionHours: this.options.retentionHours,
    };
  }

  /**
   * The audio of a kept transmission of the channel, or null: also when a block stands between its
   * speaker and the user who asks, either way.
   */
  async audio(
    channelId: number,
    transmissionId: string,
    userId: string,
    now = new Date(),
  ): Promise<StoredAudio | null> {
    const { db } = this.options;
    const [row] = await db
      .select({ id: transmissions.id })
      .from(transmissions)
      .where(
        and(
          eq(transmissions.id, transmissionId),
          eq(transmissions.channelId, channelId),
          or(gt(transmissions.startedAt, this.cutoff(now)), inUnresolvedSos(db)),
          // SOS audio plays from its alert for every member, a block or not (decision 051).
          or(notBlockedBetween(db, userId), sql`${transmissions.sosAlertId} is not null`),
        ),
      )
      .limit(1);
    return row ? this.options.audio.read({ id: row.id, channelId }) : null;
  }

  /** The user has seen (or played) everything said so far: "N missed" starts again from zero. */
  async markSeen(channelId: number, userId: string, now = new Date()): Promise<void> {
    await this.options.db
      .update(channelMembers)
      .set({ transmissionsSeenAt: now })
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)));
  }

  /**
   * Retention: everything older than the window goes, rows first, but the audio of an SOS not yet
   * resolved. Returns the channels touched.
   */
  async deleteExpired(now = new Date()): Promise<number[]> {
    const { db } = this.options;
    const gone = await db
      .delete(transmissions)
      .where(and(lt(transmissions.startedAt, this.cutoff(now)), not(inUnresolvedSos(db))))
      .returning({ id: transmissions.id, channelId: transmissions.channelId });
    await this.audioDeleted(gone);
    return [...new Set(gone.map((ref) => ref.channelId))];
  }

  /**
   * Housekeeping: audio without a row and rows without audio go (see the audio store's sweep).
   * Returns the channels whose list changed.
   */
  async sweepOrphans(now = new Date()): Promise<number[]> {
    const { audioRemoved, rowsRemoved } = await this.options.audio.sweep(now);
    if (audioRemoved > 0 || rowsRemoved.length > 0)
      this.options.log.warn({ audioRemoved, rowsRemoved: rowsRemoved.length }, 'removed transmission audio without a row and rows without audio');
    return [...new Set(rowsRemoved.map((ref) => ref.channelId))];
  }

  /** The channel's admin turned keeping off: what was kept goes too, but an unresolved SOS's audio. */
  async deleteOfChannel(channelId: number): Promise<number> {
    const { db } = this.options;
    const gone = await db
      .delete(transmissions)
      .where(and(eq(transmissions.channelId, channelId), not(inUnresolvedSos(db))))
      .returning({ id: transmissions.id, channelId: transmissions.channelId });
    await this.audioDeleted(gone);
    return gone.length;
  }

  /** The channel was deleted (its rows went with it): its audio goes. */
  async channelDeleted(channelId: number): Promise<void> {
    await this.options.audio.channelDeleted(channelId).catch((error: unknown) => {
      this.options.log.error({ err: error, channelId }, 'transmission audio left for the sweep');
    });
  }

  /**
   * What an account deletion will take with it (their own transmissions, and every transmission of
   * the channels they created and of their direct conversations): read before the rows cascade
   * away, their audio deleted after.
   */
  async audioOfUser(userId: string): Promise<AudioRef[]> {
    return this.options.db
      .select({ id: transmissions.id, channelId: transmissions.channelId })
      .from(transmissions)
      .innerJoin(channels, eq(channels.id, transmissions.channelId))
      .where(
        or(
          eq(transmissions.speakerId, userId),
          eq(channels.createdBy, userId),
          and(
            eq(channels.kind, 'direct'),
            inArray(
              channels.id,
              this.options.db
                .select({ id: channelMembers.channelId })
                .from(channelMembers)
                .where(eq(channelMembers.userId, userId)),
            ),
          ),
        ),
      );
  }

  /**
   * These rows were deleted (committed): their audio goes. A failure is logged, not thrown: the
   * deletion stands, and the sweep removes the audio later.
   */
  async audioDeleted(refs: AudioRef[]): Promise<void> {
    if (refs.length === 0) return;
    await this.options.audio.rowsDeleted(refs).catch((error: unknown) => {
      this.options.log.error({ err: error, count: refs.length }, 'transmission audio left for the sweep');
    });
  }

  private cutoff(now: Date): Date {
    return new Date(now.getTime() - this.options.retentionHours * 3_600_000);
  }
}
