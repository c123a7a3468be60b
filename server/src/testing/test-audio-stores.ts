import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import type { S3StoreConfig } from '../transmissions/audio-store/s3-audio-store.js';
import type { Config, TransmissionsStoreConfig } from '../config/config.js';
import type { Database } from '../db/database.js';
import { transmissionAudio, transmissions } from '../db/schema.js';
import type { AudioRef } from '../transmissions/audio-store/transmission-audio-store.js';
import { testDatabases, type TestDatabase } from './test-databases.js';

/**
 * The S3-compatible server the tests use (scripts/services.sh starts SeaweedFS and exports these;
 * .ci/run always does), or undefined: then only the database store is tested here.
 */
export function testS3(): Omit<S3StoreConfig, 'prefix'> | undefined {
  const env = process.env;
  if (!env.TEST_S3_ENDPOINT || !env.TEST_S3_BUCKET) return undefined;
  if (s3Phase() === 'later') return undefined;
  return {
    backend: 's3',
    endpoint: env.TEST_S3_ENDPOINT,
    bucket: env.TEST_S3_BUCKET,
    region: env.TEST_S3_REGION ?? 'us-east-1',
    accessKeyId: env.TEST_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.TEST_S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: true,
  };
}

/**
 * `npm test` runs the S3 variants last (`npm run test:s3`, scripts/test-s3.sh), since CI builds and
 * starts SeaweedFS in the background meanwhile: `TEST_S3_PHASE=later` leaves them out of a run,
 * `only` runs nothing but them; unset, a run has both (one file run by hand).
 */
export function s3Phase(): 'both' | 'later' | 'only' {
  const phase = process.env.TEST_S3_PHASE;
  return phase === 'later' || phase === 'only' ? phase : 'both';
}

/** A key prefix of the test's own in the shared bucket: its sweep never sees another test's objects. */
export const testPrefix = () => `test-${randomBytes(6).toString('hex')}/`;

export interface TestAudioStore {
  name: 'database' | 's3';
  /** The server's environment for this store (S3: with a prefix of its own). */
  env(): Record<string, string>;
}

/** The stores a server-level test runs on: the database always, S3 when the test server is there. */
export function testAudioStores(): TestAudioStore[] {
  const s3 = testS3();
  const list: TestAudioStore[] = s3Phase() === 'only' ? [] : [{ name: 'database', env: () => ({}) }];
  if (s3)
    list.push({
      name: 's3',
      env: () => ({
        TRANSMISSIONS_STORE: 's3',
        S3_ENDPOINT: s3.endpoint!,
        S3_BUCKET: s3.bucket,
        S3_REGION: s3.region,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: testPrefix(),
      }),
    });
  return list;
}

/** Every transmission audio the store holds, read from the store itself (not through Chirp). */
export async function storedAudio(store: TransmissionsStoreConfig, db: Database): Promise<AudioRef[]> {
  if (store.backend === 'database') {
    return db
      .select({ id: transmissionAudio.transmissionId, channelId: transmissions.channelId })
      .from(transmissionAudio)
      .innerJoin(transmissions, eq(transmissions.id, transmissionAudio.transmissionId));
  }
  const client = new S3Client({
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: store.forcePathStyle,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  });
  try {
    const refs: AudioRef[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: store.bucket, Prefix: store.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const [channelId, file] = object.Key!.slice(store.prefix.length).split('/');
        refs.push({ channelId: Number(channelId), id: file!.replace(/\.ogg$/, '') });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return refs;
  } finally {
    client.destroy();
  }
}

/** The ids of the channel's transmissions whose audio the store holds. */
export async function storedAudioOf(
  server: { config: Config; database: { db: Database } },
  channelId: number,
): Promise<string[]> {
  return (await storedAudio(server.config.transmissions.store, server.database.db)).filter((ref) => ref.channelId === channelId).map((ref) => ref.id);
}

/**
 * Database and audio store pairs for server-level tests: the database store on every test database,
 * and S3 on the last of them (PostgreSQL where there is one, as S3 deployments run).
 */
export function testStorages(): { name: string; database: TestDatabase; store: TestAudioStore }[] {
  const databases = testDatabases();
  return databases.flatMap((database, index) =>
    testAudioStores()
      .filter((store) => store.name === 'database' || index === databases.length - 1)
      .map((store) => ({ name: `${database.name}, audio in ${store.name}`, database, store })),
  );
}
