import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type _Object,
} from '@aws-sdk/client-s3';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TransmissionsStoreConfig } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import { transmissions } from '../../db/schema.js';
import {
  MissingSince,
  ORPHAN_GRACE_MS,
  type AudioRef,
  type RowWrite,
  type StoredAudio,
  type SweepResult,
  type TransmissionAudioStore,
} from './transmission-audio-store.js';

export type S3StoreConfig = Extract<TransmissionsStoreConfig, { backend: 's3' }>;

/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;
const KEY = /^(\d+)\/([0-9a-f-]{36})\.ogg$/;

/**
 * Audio as objects `<prefix><channelId>/<transmissionId>.ogg` in an S3-compatible bucket. The object
 * is written before the row and removed again when the row's transaction fails; after rows are
 * deleted their objects go. What a crash leaves between the two (an object without a row, a row
 * whose object went) the housekeeping sweep removes once the grace period has passed.
 */
export class S3AudioStore implements TransmissionAudioStore {
  readonly backend = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly graceMs: number;
  private readonly missing: MissingSince;

  constructor(
    private readonly db: Database,
    config: S3StoreConfig,
    private readonly log: FastifyBaseLogger,
    options: { graceMs?: number } = {},
  ) {
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Checksums only where S3 requires them: more S3-compatible servers accept that.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.graceMs = options.graceMs ?? ORPHAN_GRACE_MS;
    this.missing = new MissingSince(this.graceMs);
  }

  /** Whether the bucket answers with these credentials (checked at start). */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }

  private key(ref: AudioRef): string {
    return `${this.prefix}${ref.channelId}/${ref.id}.ogg`;
  }

  private refOf(key: string): AudioRef | null {
    const match = KEY.exec(key.slice(this.prefix.length));
    return key.startsWith(this.prefix) && match ? { channelId: Number(match[1]), id: match[2]! } : null;
  }

  private async put(ref: AudioRef, audio: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(ref),
        Body: audio,
        ContentType: 'audio/ogg; codecs=opus',
      }),
    );
  }

  async keep<T>(ref: AudioRef, audio: Buffer, write: RowWrite<T>): Promise<T> {
    await this.put(ref, audio);
    try {
      return await this.db.transaction(async (tx) => {
        await write.insertRow(tx);
        return write.rest(tx);
      });
    } catch (error) {
      // Failing here leaves an object without a row: the sweep removes it after the grace period.
      await this.deleteKeys([this.key(ref)]).catch((cause: unknown) =>
        this.log.error({ err: cause, transmissionId: ref.id }, 'transmission audio left for the sweep'),
      );
      throw error;
    }
  }

  async read(ref: AudioRef): Promise<StoredAudio | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(ref) }));
      if (!(object.Body instanceof Readable) || object.ContentLength === undefined) {
        throw new Error('S3 answered without a body or a length');
      }
      return { size: object.ContentLength, body: object.Body };
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404))
        return null;
      throw error;
    }
  }

  async import(ref: AudioRef, audio: Buffer): Promise<boolean> {
    const [row] = await this.db
      .select({ id: transmissions.id })
      .from(transmissions)
      .where(and(eq(transmissions.id, ref.id), eq(transmissions.channelId, ref.channelId)));
    if (!row) return false;
    // A row deleted from here on leaves this object to the sweep.
    await this.put(ref, audio);
    return true;
  }

  async rowsDeleted(refs: readonly AudioRef[]): Promise<void> {
    await this.deleteKeys(refs.map((ref) => this.key(ref)));
  }

  async channelDeleted(channelId: number): Promise<void> {
    for await (const page of this.pages(`${this.prefix}${channelId}/`))
      await this.deleteKeys(page.map((object) => object.Key!));
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    const stored = new Set<string>();
    let audioRemoved = 0;
    // Objects first, rows after: a row committed after its object was listed is still found.
    for await (const page of this.pages(this.prefix)) {
      const listed = page.flatMap((object) => {
        const ref = this.refOf(object.Key!);
        return ref ? [{ ref, key: object.Key!, modified: object.LastModified?.getTime() ?? 0 }] : [];
      });
      const rows = listed.length
        ? await this.db
            .select({ id: transmissions.id })
            .from(transmissions)
            .where(inArray(transmissions.id, listed.map((object) => object.ref.id)))
        : [];
      const withRow = new Set(rows.map((row) => row.id));
      const orphans = listed.filter(
        (object) => !withRow.has(object.ref.id) && now.getTime() - object.modified >= this.graceMs,
      );
      for (const object of listed) if (withRow.has(object.ref.id)) stored.add(object.ref.id);
      await this.deleteKeys(orphans.map((object) => object.key));
      audioRemoved += orphans.length;
    }
    const rows = await this.db
      .select({ id: transmissions.id, channelId: transmissions.channelId })
      .from(transmissions);
    const due = this.missing.update(
      rows.filter((row) => !stored.has(row.id)),
      now.getTime(),
    );
    const rowsRemoved = due.length
      ? await this.db
          .delete(transmissions)
          .where(inArray(transmissions.id, due.map((ref) => ref.id)))
          .returning({ id: transmissions.id, channelId: transmissions.channelId })
      : [];
    this.missing.forget(due);
    return { audioRemoved, rowsRemoved };
  }

  private async *pages(prefix: string): AsyncGenerator<_Object[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      yield (page.Contents ?? []).filter((object) => object.Key !== undefined);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      if (batch.length === 1) {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: batch[0] }));
        continue;
      }
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = result.Errors ?? [];
      if (failed.length > 0) throw new Error(`S3 did not delete ${failed.length} objects: ${failed[0]!.Code ?? ''}`);
    }
  }
}
