import type { FastifyBaseLogger } from 'fastify';
import type { TransmissionsStoreConfig } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import { StartRefusal } from '../../start-refusal.js';
import { DatabaseAudioStore } from './database-audio-store.js';
import type { TransmissionAudioStore } from './transmission-audio-store.js';

/**
 * The configured store (TRANSMISSIONS_STORE). A bucket that does not answer stops the start: every
 * transmission would otherwise be lost one by one, each only in the log.
 */
export async function createAudioStore(
  db: Database,
  config: TransmissionsStoreConfig,
  log: FastifyBaseLogger,
): Promise<{ store: TransmissionAudioStore; close(): void }> {
  if (config.backend === 'database') return { store: new DatabaseAudioStore(db), close: () => undefined };
  // The AWS SDK loads only where it is used.
  const { S3AudioStore } = await import('./s3-audio-store.js');
  const store = new S3AudioStore(db, config, log);
  try {
    await store.check();
  } catch (error) {
    store.close();
    const reason = error instanceof Error ? error.name : 'error';
    throw new StartRefusal(
      `Refusing to start: the S3 bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''} ` +
        `does not answer (${reason}); check S3_ENDPOINT, S3_BUCKET, S3_REGION and the keys.`,
    );
  }
  return { store, close: () => store.close() };
}
