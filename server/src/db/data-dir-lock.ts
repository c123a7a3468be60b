import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

export class DatabaseInUseError extends Error {}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is one process's database: a second process opening the same directory (a second server,
 * the admin command, a backup) would write the same files unsynchronised. A lock file holding the
 * owner's PID keeps it to one; a lock left by a process that is gone is taken over.
 */
export function lockDataDir(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DatabaseInUseError(
          `The embedded database is in use by process ${owner} (${lockPath}). ` +
            'PGlite allows one process at a time: stop the Chirp server first, or use PostgreSQL (DATABASE_URL).',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock the embedded database (${lockPath})`);
}
