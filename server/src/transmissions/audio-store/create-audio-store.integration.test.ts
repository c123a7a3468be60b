import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { StartRefusal } from '../../start-refusal.js';
import { freePort } from '../../testing/test-server.js';
import { testDatabases } from '../../testing/test-databases.js';
import { createAudioStore } from './create-audio-store.js';
import { testPrefix, testS3 } from '../../testing/test-audio-stores.js';

const log = pino({ level: 'silent' });

/** A bucket that cannot be used stops the start with one line, instead of losing every transmission later. */
describe('choosing the transmission audio store at start', () => {
  it('refuses to start when the S3 server does not answer, or refuses the keys', async () => {
    const [database] = testDatabases();
    const handle = await database!.open();
    try {
      const nobody = {
        backend: 's3' as const,
        endpoint: `http://127.0.0.1:${await freePort()}`,
        bucket: 'chirp',
        region: 'us-east-1',
        accessKeyId: 'key',
        secretAccessKey: 'secret',
        forcePathStyle: true,
        prefix: testPrefix(),
      };
      await expect(createAudioStore(handle.db, nobody, log)).rejects.toThrow(StartRefusal);
      await expect(createAudioStore(handle.db, nobody, log)).rejects.toThrow(/S3 bucket chirp at http:\/\/127\.0\.0\.1:\d+ does not answer/);
      const s3 = testS3();
      if (s3) {
        await expect(
          createAudioStore(handle.db, { ...s3, secretAccessKey: 'not-the-secret', prefix: testPrefix() }, log),
        ).rejects.toThrow(StartRefusal);
        const created = await createAudioStore(handle.db, { ...s3, prefix: testPrefix() }, log);
        expect(created.store.backend).toBe('s3');
        created.close();
      }
    } finally {
      await handle.close();
    }
  });
});
