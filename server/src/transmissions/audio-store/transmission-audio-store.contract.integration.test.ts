import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransmissionsStoreConfig } from '../../config/config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { channels, transmissionAudio, transmissions, users } from '../../db/schema.js';
import { testDatabases, type TestDatabase } from '../../testing/test-databases.js';
import { DatabaseAudioStore } from './database-audio-store.js';
import { S3AudioStore } from './s3-audio-store.js';
import { s3Phase, storedAudio, testPrefix, testS3 } from '../../testing/test-audio-stores.js';
import type { AudioRef, StoredAudio, TransmissionAudioStore } from './transmission-audio-store.js';

const GRACE_MS = 60_000;
const log = pino({ level: 'silent' });

interface Backend {
  name: string;
  database: TestDatabase;
  open(db: DatabaseHandle): { store: TransmissionAudioStore; config: TransmissionsStoreConfig; close(): void };
}

/** The database store on every test database; S3 (the real test server) on the last of them. */
function backends(): Backend[] {
  const databases = testDatabases();
  const list: Backend[] = (s3Phase() === 'only' ? [] : databases).map((database) => ({
    name: `database on ${database.name}`,
    database,
    open: (handle) => ({
      store: new DatabaseAudioStore(handle.db, { graceMs: GRACE_MS }),
      config: { backend: 'database' },
      close: () => undefined,
    }),
  }));
  const s3 = testS3();
  if (s3)
    list.push({
      name: `s3 with ${databases.at(-1)!.name}`,
      database: databases.at(-1)!,
      open: (handle) => {
        const config = { ...s3, prefix: testPrefix() };
        const store = new S3AudioStore(handle.db, config, log, { graceMs: GRACE_MS });
        return { store, config, close: () => store.close() };
      },
    });
  return list;
}

const bytesOf = async (audio: StoredAudio | null): Promise<Buffer | null> => {
  if (!audio) return null;
  if (Buffer.isBuffer(audio.body)) return audio.body;
  const chunks: Buffer[] = [];
  for await (const chunk of audio.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

/**
 * What every transmission audio store promises, against the real thing (PGlite, PostgreSQL, and a
 * real S3-compatible server when TEST_S3_* is set): the audio is there exactly while its row is,
 * whatever fails in between, and the sweep removes what a crash could leave.
 */
describe.each(backends())('transmission audio store: $name', (backend) => {
  let handle: DatabaseHandle;
  let opened: ReturnType<Backend['open']>;
  let store: TransmissionAudioStore;
  let channelId: number;
  let speakerId: string;

  const clip = (fill: number) => Buffer.concat([Buffer.from('OggS'), Buffer.alloc(4_000, fill)]);
  const rowOf = (ref: AudioRef) => ({
    id: ref.id,
    channelId: ref.channelId,
    speakerId,
    startedAt: new Date(),
    durationMs: 1_000,
    bytes: 4_004,
  });
  const keep = (ref: AudioRef, audio: Buffer) =>
    store.keep(ref, audio, {
      insertRow: async (tx) => {
        await tx.insert(transmissions).values(rowOf(ref));
      },
      rest: async () => 'kept',
    });
  const held = async () => (await storedAudio(opened.config, handle.db)).map((ref) => ref.id);
  const rowExists = async (id: string) =>
    (await handle.db.select().from(transmissions).where(eq(transmissions.id, id))).length === 1;

  beforeAll(async () => {
    handle = await backend.database.open();
    opened = backend.open(handle);
    store = opened.store;
    const [user] = await handle.db
      .insert(users)
      .values({ issuer: 'https://issuer.test', subject: randomUUID() })
      .returning({ id: users.id });
    speakerId = user!.id;
    const [channel] = await handle.db
      .insert(channels)
      .values({ name: 'Radio', createdBy: speakerId, talkMode: 'walkie' })
      .returning({ id: channels.id });
    channelId = channel!.id;
  });
  afterAll(async () => {
    opened?.close();
    await handle?.close();
  });

  it('keeps audio with its row, reads it back, and deletes it with the row', async () => {
    const ref = { id: randomUUID(), channelId };
    expect(await keep(ref, clip(1))).toBe('kept');
    const read = await store.read(ref);
    expect(read?.size).toBe(4_004);
    expect(await bytesOf(read)).toEqual(clip(1));
    // Another channel's id does not reach it.
    expect(await store.read({ id: ref.id, channelId: channelId + 1 })).toBeNull();

    await handle.db.delete(transmissions).where(eq(transmissions.id, ref.id));
    await store.rowsDeleted([ref]);
    expect(await store.read(ref)).toBeNull();
    expect(await held()).not.toContain(ref.id);
  });

  it('leaves neither audio nor row when the row is not committed', async () => {
    // The row's insert fails (no such channel)…
    const orphan = { id: randomUUID(), channelId: 999_999 };
    await expect(keep(orphan, clip(2))).rejects.toThrow();
    // …or the rest of its transaction does, after the row was inserted.
    const undone = { id: randomUUID(), channelId };
    await expect(
      store.keep(undone, clip(3), {
        insertRow: async (tx) => {
          await tx.insert(transmissions).values(rowOf(undone));
        },
        rest: async () => {
          throw new Error('the cap could not be applied');
        },
      }),
    ).rejects.toThrow('the cap could not be applied');
    for (const ref of [orphan, undone]) {
      expect(await rowExists(ref.id)).toBe(false);
      expect(await store.read(ref)).toBeNull();
      expect(await held()).not.toContain(ref.id);
    }
  });

  it('stores the audio of an existing row once however often it is imported, and none without a row', async () => {
    const ref = { id: randomUUID(), channelId };
    await handle.db.insert(transmissions).values(rowOf(ref));
    expect(await store.import(ref, clip(4))).toBe(true);
    expect(await store.import(ref, clip(4))).toBe(true);
    expect(await bytesOf(await store.read(ref))).toEqual(clip(4));
    expect((await held()).filter((id) => id === ref.id)).toHaveLength(1);

    const stray = { id: randomUUID(), channelId };
    expect(await store.import(stray, clip(5))).toBe(false);
    expect(await held()).not.toContain(stray.id);
  });

  it('sweeps rows left without audio, once the grace period has passed', async () => {
    const lost = { id: randomUUID(), channelId };
    await handle.db.insert(transmissions).values(rowOf(lost));
    const kept = { id: randomUUID(), channelId };
    await keep(kept, clip(6));
    const now = Date.now();
    // Found without audio: not removed yet (its audio may be on its way).
    expect((await store.sweep(new Date(now))).rowsRemoved).toEqual([]);
    expect(await rowExists(lost.id)).toBe(true);
    const later = await store.sweep(new Date(now + GRACE_MS));
    expect(later.rowsRemoved).toEqual([lost]);
    expect(await rowExists(lost.id)).toBe(false);
    expect(await rowExists(kept.id)).toBe(true);
    expect(await bytesOf(await store.read(kept))).toEqual(clip(6));
  });

  it('never holds audio without a row: the database refuses it, the sweep removes a stray object', async () => {
    const stray = { id: randomUUID(), channelId };
    if (opened.config.backend === 'database') {
      await expect(
        handle.db.insert(transmissionAudio).values({ transmissionId: stray.id, data: clip(7) }),
      ).rejects.toThrow();
      return;
    }
    // What a crash between the object and its row leaves.
    const config = opened.config;
    const client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
    await client.send(
      new PutObjectCommand({ Bucket: config.bucket, Key: `${config.prefix}${channelId}/${stray.id}.ogg`, Body: clip(7) }),
    );
    client.destroy();
    const kept = { id: randomUUID(), channelId };
    await keep(kept, clip(8));
    // Young: it may be an object whose row is being committed right now.
    expect((await store.sweep()).audioRemoved).toBe(0);
    expect(await held()).toContain(stray.id);
    const later = await store.sweep(new Date(Date.now() + GRACE_MS));
    expect(later.audioRemoved).toBe(1);
    expect(await held()).not.toContain(stray.id);
    expect(await bytesOf(await store.read(kept))).toEqual(clip(8));
  });

  it('takes all of a deleted channel’s audio', async () => {
    const refs = [{ id: randomUUID(), channelId }, { id: randomUUID(), channelId }];
    for (const ref of refs) await keep(ref, clip(9));
    await handle.db.delete(channels).where(eq(channels.id, channelId));
    await store.channelDeleted(channelId);
    for (const ref of refs) expect(await store.read(ref)).toBeNull();
    expect(await held()).toEqual([]);
  });
});
