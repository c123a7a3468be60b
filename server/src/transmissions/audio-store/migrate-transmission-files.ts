import { readFile, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { TransmissionAudioStore } from './transmission-audio-store.js';

export interface FileMigration {
  /** Files whose row exists: their audio is in the store now and the file is gone. */
  moved: number;
  /** Files without a row (or not a transmission's): deleted. */
  removed: number;
  /** Files left for the next start: the store did not take them (logged). */
  failed: number;
}

const FILE = /^([0-9a-f-]{36})\.ogg$/;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
const ignoreMissing = (error: unknown) => {
  if (!missing(error)) throw error;
};

/**
 * Earlier versions kept each transmission's audio as `<dir>/<channelId>/<id>.ogg`, readable by one
 * instance only. At start every file moves into the store: a file whose row exists is stored, then
 * deleted; any other file is deleted. Safe to run again and on two instances at once: storing is
 * idempotent, and a file another instance already took is skipped. Emptied folders go too.
 */
export async function migrateTransmissionFiles(
  dir: string,
  store: TransmissionAudioStore,
  log: FastifyBaseLogger,
): Promise<FileMigration> {
  const result: FileMigration = { moved: 0, removed: 0, failed: 0 };
  const channels = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (missing(error)) return [];
    throw error;
  });
  if (channels.length === 0) return result;
  for (const folder of channels) {
    const path = join(dir, folder.name);
    if (!folder.isDirectory()) {
      await unlink(path).catch(ignoreMissing);
      result.removed++;
      continue;
    }
    const channelId = /^\d+$/.test(folder.name) ? Number(folder.name) : null;
    const files = await readdir(path).catch((error: unknown) => {
      if (missing(error)) return [];
      throw error;
    });
    for (const name of files) {
      const file = join(path, name);
      const id = FILE.exec(name)?.[1];
      let audio: Buffer | null = null;
      if (id && channelId !== null) {
        audio = await readFile(file).catch((error: unknown) => {
          if (missing(error)) return null;
          throw error;
        });
        if (!audio) continue; // another instance took it
        try {
          if (!(await store.import({ id, channelId }, audio))) audio = null;
        } catch (error) {
          log.error({ err: error, transmissionId: id }, 'transmission file not moved into the store; kept for the next start');
          result.failed++;
          continue;
        }
      }
      await unlink(file).catch(ignoreMissing);
      if (audio) result.moved++;
      else result.removed++;
    }
    await rmdir(path).catch(() => undefined); // not empty: a file was kept for the next start
  }
  await rmdir(dir).catch(() => undefined);
  log.info(
    { ...result, store: store.backend },
    `moved ${result.moved} transmission files into the ${store.backend} store, deleted ${result.removed} without a row, kept ${result.failed} that failed`,
  );
  return result;
}
