import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { DatabaseHandle } from '../../server/src/db/database.js';
import { channels, transmissions, users } from '../../server/src/db/schema.js';
import { testDatabases } from '../../server/src/testing/test-databases.js';
import { DatabaseAudioStore } from '../../server/src/transmissions/audio-store/database-audio-store.js';
import { S3AudioStore } from '../../server/src/transmissions/audio-store/s3-audio-store.js';
import { testPrefix, testS3 } from '../../server/src/testing/test-audio-stores.js';
import type { StoredAudio, TransmissionAudioStore } from '../../server/src/transmissions/audio-store/transmission-audio-store.js';
import { TransmissionRecording } from '../../server/src/transmissions/transmission-recording.js';
import { percentile } from '../stats.js';

/**
 * Kept voice in storage: how much the database grows per hour of kept speech, and how long keeping
 * (row and audio) and reading one clip take per store. Clips are what the recorder writes: 30 s of
 * 20 ms Opus packets (hybrid wideband TOC, 50-110 bytes of incompressible payload, about 32 kbit/s
 * as browsers send speech) in the project's Ogg writer. Stores: the database on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL; S3 with TEST_S3_* (scripts/services.sh).
 */
const CLIP_SECONDS = 30;
const CLIPS_PER_HOUR = 3600 / CLIP_SECONDS;
const log = pino({ level: 'silent' });

function clip(speakerId: string): { ogg: Buffer; durationMs: number; startedAt: Date } {
  let now = Date.now();
  const recording = new TransmissionRecording(speakerId, { now: () => now });
  for (let i = 0; i < CLIP_SECONDS * 50; i++) {
    // TOC 0x78: hybrid, full band, 20 ms, mono, one frame.
    recording.push(1, i * 960, Buffer.concat([Buffer.from([0x78]), randomBytes(randomInt(49, 110))]));
    now += 20;
  }
  return recording.finish()!;
}

const drain = async (audio: StoredAudio | null): Promise<number> => {
  if (!audio) throw new Error('clip not found');
  if (Buffer.isBuffer(audio.body)) return audio.body.length;
  let bytes = 0;
  for await (const chunk of audio.body) bytes += (chunk as Buffer).length;
  return bytes;
};

async function seed(handle: DatabaseHandle): Promise<{ speakerId: string; channelId: number }> {
  const [user] = await handle.db
    .insert(users)
    .values({ issuer: 'https://bench.test', subject: randomUUID() })
    .returning({ id: users.id });
  const [channel] = await handle.db
    .insert(channels)
    .values({ name: 'Bench', createdBy: user!.id, talkMode: 'walkie' })
    .returning({ id: channels.id });
  return { speakerId: user!.id, channelId: channel!.id };
}

async function run(name: string, handle: DatabaseHandle, store: TransmissionAudioStore): Promise<void> {
  const { speakerId, channelId } = await seed(handle);
  const clips = Array.from({ length: CLIPS_PER_HOUR }, () => clip(speakerId));
  const oggBytes = clips.reduce((sum, c) => sum + c.ogg.length, 0);
  const puts: number[] = [];
  const refs = [];
  for (const c of clips) {
    const ref = { id: randomUUID(), channelId };
    const start = performance.now();
    await store.keep(ref, c.ogg, {
      insertRow: async (tx) => {
        await tx.insert(transmissions).values({
          id: ref.id,
          channelId,
          speakerId,
          startedAt: c.startedAt,
          durationMs: c.durationMs,
          bytes: c.ogg.length,
        });
      },
      rest: async () => undefined,
    });
    puts.push(performance.now() - start);
    refs.push(ref);
  }
  const gets: number[] = [];
  for (const ref of refs) {
    const start = performance.now();
    await drain(await store.read(ref));
    gets.push(performance.now() - start);
  }
  const size = async (table: string) => {
    // Both drivers answer raw SQL with `rows`.
    const result: unknown = await handle.db.execute(sql`select pg_total_relation_size(${table}) as bytes`);
    return Number((result as { rows: { bytes: string | number }[] }).rows[0]!.bytes);
  };
  const mb = (bytes: number) => (bytes / 1_000_000).toFixed(2);
  const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
  console.log(
    `${name}: one hour of kept voice = ${CLIPS_PER_HOUR} clips of ${CLIP_SECONDS} s, Ogg Opus ${mb(oggBytes)} MB ` +
      `(${Math.round(oggBytes / CLIPS_PER_HOUR / 1000)} KB a clip); database per hour: transmission_audio ` +
      `${mb(await size('transmission_audio'))} MB, transmissions ${mb(await size('transmissions'))} MB; ` +
      `keep p50 ${ms(puts, 50)} ms p99 ${ms(puts, 99)} ms; read p50 ${ms(gets, 50)} ms p99 ${ms(gets, 99)} ms`,
  );
}

for (const database of testDatabases()) {
  const handle = await database.open();
  try {
    await run(`database store on ${database.name}`, handle, new DatabaseAudioStore(handle.db));
  } finally {
    await handle.close();
  }
}
const s3 = testS3();
if (s3) {
  const database = testDatabases().at(-1)!;
  const handle = await database.open();
  const store = new S3AudioStore(handle.db, { ...s3, prefix: testPrefix() }, log);
  try {
    await run(`s3 store (SeaweedFS, rows on ${database.name})`, handle, store);
    // The bench's objects go again: the rows are dropped with the database.
    await store.channelDeleted((await handle.db.select({ id: channels.id }).from(channels))[0]!.id);
  } finally {
    store.close();
    await handle.close();
  }
} else {
  console.log('s3 store: not measured (set TEST_S3_* with scripts/services.sh)');
}
