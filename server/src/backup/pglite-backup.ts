import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '../db/data-dir-lock.js';
import { pgliteDir } from '../db/database.js';
import { PrivateNodeFS } from '../db/private-node-fs.js';

const timestamp = () => new Date().toISOString().replace(/[:.]/g, '-');

/**
 * Writes the embedded database of `dataDir` to `file` as PGlite's gzipped data-directory tarball.
 * The database is opened as it is (no migrations), and only while no server holds it.
 */
export async function backupPglite(dataDir: string, file: string): Promise<{ bytes: number }> {
  const dir = pgliteDir(dataDir);
  if (!existsSync(dir) || readdirSync(dir).length === 0) throw new Error(`No embedded database in ${dir}`);
  const unlock = lockDataDir(`${dir}.lock`);
  try {
    const client = new PGlite({ fs: new PrivateNodeFS(dir) });
    try {
      // Dumping before the database has started never settles.
      await client.waitReady;
      const dump = await client.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      // Written beside the target and renamed, so a crash never leaves a truncated backup behind.
      const partial = join(dirname(file), `.${timestamp()}.partial`);
      // The server's user only: a backup holds password hashes and the sign-in signing key.
      writeFileSync(partial, bytes, { mode: 0o600, flag: 'wx' });
      renameSync(partial, file);
      return { bytes: bytes.length };
    } finally {
      await client.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Replaces the embedded database of `dataDir` with the backup in `file`. The current database is
 * kept beside it (`db.before-restore-<time>`) and put back if the backup does not open.
 */
export async function restorePglite(dataDir: string, file: string): Promise<{ keptAs: string | undefined }> {
  const dir = pgliteDir(dataDir);
  const dump = new Blob([readFileSync(file)]);
  const unlock = lockDataDir(`${dir}.lock`);
  try {
    let keptAs: string | undefined;
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      keptAs = `${dir}.before-restore-${timestamp()}`;
      renameSync(dir, keptAs);
    } else {
      rmSync(dir, { recursive: true, force: true });
    }
    try {
      const client = new PGlite({ fs: new PrivateNodeFS(dir), loadDataDir: dump });
      try {
        await client.query('select 1');
      } finally {
        await client.close();
      }
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (keptAs) renameSync(keptAs, dir);
      throw new Error(`${file} is not a Chirp database backup: ${(error as Error).message}`, { cause: error });
    }
    return { keptAs };
  } finally {
    unlock();
  }
}
