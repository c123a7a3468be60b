import type { Readable } from 'node:stream';
import type { Queryable } from '../../db/database.js';

/** Which transmission's audio: its id, and its channel (object keys and deletions go by channel). */
export interface AudioRef {
  id: string;
  channelId: number;
}

/** A kept transmission's Ogg Opus audio, whole or as a stream, and its length in bytes. */
export interface StoredAudio {
  size: number;
  body: Buffer | Readable;
}

/** The row a new transmission's audio goes with, written in one transaction. */
export interface RowWrite<T> {
  /** Inserts the transmission's row: the transaction's first step. */
  insertRow(tx: Queryable): Promise<void>;
  /** The rest of that transaction (it may delete the new row again: the per-channel cap). */
  rest(tx: Queryable): Promise<T>;
}

/** What a sweep removed: audio without a row, and rows without audio (their channels changed). */
export interface SweepResult {
  audioRemoved: number;
  rowsRemoved: AudioRef[];
}

/**
 * Where kept transmissions' audio lives, so that every instance can play what any instance recorded:
 * the database (`transmission_audio`, default) or an S3-compatible bucket. Either way no audio
 * outlives its row and no row outlives its audio: the database writes both in one transaction and
 * loses both by the cascade; S3 writes the object before the row and removes it when the row is not
 * committed or is deleted, and the sweep removes what a crash left between the two.
 */
export interface TransmissionAudioStore {
  readonly backend: 'database' | 's3';
  /** Keeps the audio with the row `write` inserts: once it returns both are kept, if it throws neither. */
  keep<T>(ref: AudioRef, audio: Buffer, write: RowWrite<T>): Promise<T>;
  /** A transmission's audio, or null when it has none. */
  read(ref: AudioRef): Promise<StoredAudio | null>;
  /**
   * Audio for a row that already exists (files of earlier versions); false when there is no such row.
   * Idempotent: storing the same audio twice keeps one copy.
   */
  import(ref: AudioRef, audio: Buffer): Promise<boolean>;
  /** These rows were deleted (committed): their audio goes too. */
  rowsDeleted(refs: readonly AudioRef[]): Promise<void>;
  /** The channel was deleted and its rows cascaded: all of its audio goes. */
  channelDeleted(channelId: number): Promise<void>;
  /**
   * Removes audio without a row and rows without audio, once each has been so for the grace period
   * (an S3 object is written just before its row; a migration stores audio for rows just after).
   */
  sweep(now?: Date): Promise<SweepResult>;
}

/** How long audio or a row may be without the other before a sweep takes it for an orphan. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Rows a sweep found without audio, and since when: one is removed only once it has been missing
 * its audio for the grace period, so audio that an instance is storing for it right now (the file
 * migration, an object listed just before its row committed) is never taken for gone.
 */
export class MissingSince {
  private readonly since = new Map<string, number>();

  constructor(private readonly graceMs: number) {}

  /** Records this sweep's rows without audio; returns those missing for the whole grace period. */
  update(missing: readonly AudioRef[], now: number): AudioRef[] {
    const seen = new Set(missing.map((ref) => ref.id));
    for (const id of [...this.since.keys()]) if (!seen.has(id)) this.since.delete(id);
    const due: AudioRef[] = [];
    for (const ref of missing) {
      const since = this.since.get(ref.id);
      if (since === undefined) this.since.set(ref.id, now);
      else if (now - since >= this.graceMs) due.push(ref);
    }
    return due;
  }

  forget(refs: readonly AudioRef[]): void {
    for (const ref of refs) this.since.delete(ref.id);
  }
}
