import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransmissionsStoreConfig } from '../../config/config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { channels, transmissions, users } from '../../db/schema.js';
import { startTestServer } from '../../testing/test-server.js';
import { DatabaseAudioStore } from './database-audio-store.js';
import { migrateTransmissionFiles } from './migrate-transmission-files.js';
import { S3AudioStore } from './s3-audio-store.js';
import { storedAudio, testPrefix, testS3, testStorages } from '../../testing/test-audio-stores.js';
import type { StoredAudio, TransmissionAudioStore } from './transmission-audio-store.js';

const log = pino({ level: 'silent' });

const bytesOf = async (audio: StoredAudio | null): Promise<Buffer | null> => {
  if (!audio) return null;
  if (Buffer.isBuffer(audio.body)) return audio.body;
  const chunks: Buffer[] = [];
  for await (const chunk of audio.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

/** Rows of two kept transmissions and, as earlier versions left them, their files and some others. */
async function legacyData(db: DatabaseHandle['db'], dir: string) {
  const [user] = await db
    .insert(users)
    .values({ issuer: 'https://issuer.test', subject: randomUUID() })
    .returning({ id: users.id });
  const [channel] = await db
    .insert(channels)
    .values({ name: 'Radio', createdBy: user!.id, talkMode: 'walkie' })
    .returning({ id: channels.id });
  const channelId = channel!.id;
  const kept = [1, 2].map((n) => ({ ref: { id: randomUUID(), channelId }, audio: Buffer.alloc(3_000 + n, n) }));
  for (const { ref } of kept)
    await db.insert(transmissions).values({
      id: ref.id,
      channelId,
      speakerId: user!.id,
      startedAt: new Date(),
      durationMs: 1_000,
      bytes: 3_000,
    });
  mkdirSync(join(dir, String(channelId)), { recursive: true });
  mkdirSync(join(dir, '424242'), { recursive: true });
  for (const { ref, audio } of kept) writeFileSync(join(dir, String(channelId), `${ref.id}.ogg`), audio);
  // A row deleted while its file stayed, a write cut short, a deleted channel's leftover.
  const withoutRow = randomUUID();
  writeFileSync(join(dir, String(channelId), `${withoutRow}.ogg`), Buffer.alloc(10, 9));
  writeFileSync(join(dir, String(channelId), `${randomUUID()}.ogg.part`), Buffer.alloc(10, 9));
  writeFileSync(join(dir, '424242', `${randomUUID()}.ogg`), Buffer.alloc(10, 9));
  return { kept, withoutRow };
}

/**
 * Earlier versions' files in DATA_DIR/transmissions move into the configured store: run by two
 * instances at once and again, the stored audio is each file's, once, and no file is left.
 */
describe.each(testStorages())('moving transmission files into the store on $name', ({ database, store: storeKind }) => {
  let handle: DatabaseHandle;
  let config: TransmissionsStoreConfig;
  const stores: TransmissionAudioStore[] = [];

  beforeAll(async () => {
    handle = await database.open();
    const s3 = testS3();
    config = storeKind.name === 's3' && s3 ? { ...s3, prefix: testPrefix() } : { backend: 'database' };
    for (let i = 0; i < 2; i++)
      stores.push(config.backend === 's3' ? new S3AudioStore(handle.db, config, log) : new DatabaseAudioStore(handle.db));
  });
  afterAll(async () => {
    for (const store of stores) if (store instanceof S3AudioStore) store.close();
    await handle?.close();
  });

  it('stores each file whose row exists, deletes the rest, and is safe on two instances at once', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chirp-legacy-')), 'transmissions');
    const { kept, withoutRow } = await legacyData(handle.db, dir);
    const [first, second] = await Promise.all(stores.map((store) => migrateTransmissionFiles(dir, store, log)));
    // Between them every file was handled once or, when both read it, stored the same twice.
    expect(first!.failed + second!.failed).toBe(0);
    expect(first!.moved + second!.moved).toBeGreaterThanOrEqual(2);
    expect(first!.removed + second!.removed).toBeGreaterThanOrEqual(3);
    expect(existsSync(dir)).toBe(false);

    for (const { ref, audio } of kept) expect(await bytesOf(await stores[0]!.read(ref))).toEqual(audio);
    const held = (await storedAudio(config, handle.db)).map((ref) => ref.id).sort();
    expect(held).toEqual(kept.map(({ ref }) => ref.id).sort());
    expect(held).not.toContain(withoutRow);

    // Again (the next start): nothing left to do.
    expect(await migrateTransmissionFiles(dir, stores[0]!, log)).toEqual({ moved: 0, removed: 0, failed: 0 });
  });
});

describe('a server started over earlier versions’ files', () => {
  it('moves them into its store before it serves', async () => {
    const [database] = testStorages();
    const handle = await database!.database.open();
    const dataDir = mkdtempSync(join(tmpdir(), 'chirp-data-'));
    const dir = join(dataDir, 'transmissions');
    const { kept } = await legacyData(handle.db, dir);
    const server = await startTestServer(handle, { DATA_DIR: dataDir });
    try {
      expect(existsSync(dir)).toBe(false);
      const stored = await storedAudio(server.config.transmissions.store, handle.db);
      expect(stored.map((ref) => ref.id).sort()).toEqual(kept.map(({ ref }) => ref.id).sort());
    } finally {
      await server.close();
      await handle.close();
    }
  });
});
