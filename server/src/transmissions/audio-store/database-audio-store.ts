import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { transmissionAudio, transmissions } from '../../db/schema.js';
import {
  MissingSince,
  ORPHAN_GRACE_MS,
  type AudioRef,
  type RowWrite,
  type StoredAudio,
  type SweepResult,
  type TransmissionAudioStore,
} from './transmission-audio-store.js';

/**
 * Audio in the database (`transmission_audio`, bytea), beside its row: written in the row's
 * transaction, gone with it by the cascade (retention, the per-channel cap, a channel or an account
 * deleted, also by the admin command), so every instance on the database plays it and nothing is
 * left to clean up after a deletion.
 */
export class DatabaseAudioStore implements TransmissionAudioStore {
  readonly backend = 'database';
  private readonly missing: MissingSince;

  constructor(
    private readonly db: Database,
    options: { graceMs?: number } = {},
  ) {
    this.missing = new MissingSince(options.graceMs ?? ORPHAN_GRACE_MS);
  }

  async keep<T>(ref: AudioRef, audio: Buffer, write: RowWrite<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await write.insertRow(tx);
      await tx.insert(transmissionAudio).values({ transmissionId: ref.id, data: audio });
      return write.rest(tx);
    });
  }

  async read(ref: AudioRef): Promise<StoredAudio | null> {
    const [row] = await this.db
      .select({ data: transmissionAudio.data })
      .from(transmissionAudio)
      .innerJoin(transmissions, eq(transmissions.id, transmissionAudio.transmissionId))
      .where(and(eq(transmissionAudio.transmissionId, ref.id), eq(transmissions.channelId, ref.channelId)))
      .limit(1);
    return row ? { size: row.data.length, body: row.data } : null;
  }

  async import(ref: AudioRef, audio: Buffer): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The row cannot be deleted under the insert (FOR KEY SHARE), so a missing row is "no row".
      const [row] = await tx
        .select({ id: transmissions.id })
        .from(transmissions)
        .where(and(eq(transmissions.id, ref.id), eq(transmissions.channelId, ref.channelId)))
        .for('key share');
      if (!row) return false;
      await tx
        .insert(transmissionAudio)
        .values({ transmissionId: ref.id, data: audio })
        .onConflictDoNothing();
      return true;
    });
  }

  async rowsDeleted(): Promise<void> {
    // The cascade took the audio with the rows.
  }

  async channelDeleted(): Promise<void> {
    // The cascade took the audio with the channel's rows.
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    // Audio cannot be without its row (foreign key); rows can be without audio only if they were
    // kept by an earlier version and their file was never moved in.
    const missing = await this.db
      .select({ id: transmissions.id, channelId: transmissions.channelId })
      .from(transmissions)
      .where(
        notExists(
          this.db
            .select({ one: sql`1` })
            .from(transmissionAudio)
            .where(eq(transmissionAudio.transmissionId, transmissions.id)),
        ),
      );
    const due = this.missing.update(missing, now.getTime());
    if (due.length === 0) return { audioRemoved: 0, rowsRemoved: [] };
    const removed = await this.db
      .delete(transmissions)
      .where(
        and(
          inArray(
            transmissions.id,
            due.map((ref) => ref.id),
          ),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(transmissionAudio)
              .where(eq(transmissionAudio.transmissionId, transmissions.id)),
          ),
        ),
      )
      .returning({ id: transmissions.id, channelId: transmissions.channelId });
    this.missing.forget(due);
    return { audioRemoved: 0, rowsRemoved: removed };
  }
}
