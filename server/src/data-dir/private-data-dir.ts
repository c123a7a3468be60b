import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { StartRefusal } from '../start-refusal.js';

/** Folders in DATA_DIR, and everything Chirp writes beside it (backups): the server's user only. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Group and others: no bit for them may be set on anything in the data folder. */
const OTHERS = 0o077;
/** Write permission for group or others on a folder lets them add, replace or remove its entries. */
const OTHERS_WRITE = 0o022;

/**
 * Every file and folder this process creates from now on is its user's alone, whatever umask it
 * was started with (PGlite creates its files 0666 and lets the umask decide). Called first thing by
 * the server and by every command-line tool; explicit modes on our own mkdir/writeFile back it up.
 */
export function keepNewFilesPrivate(): void {
  process.umask(OTHERS);
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

interface Entry {
  path: string;
  stats: Stats;
}

/**
 * What Chirp keeps in DATA_DIR: the embedded database, its lock and the copies a restore keeps, the
 * session secret, the owner setup code, kept transmissions. Only these are walked and changed: a
 * DATA_DIR pointed at a folder that holds other things (a home folder, say) keeps their modes, and
 * they are out of others' reach anyway once the folder itself is 0700.
 */
const OURS = /^(db|db\.lock|db\.before-restore-.+|session-secret|owner-setup-code|transmissions)$/;

/** Every entry under `path` (not following symbolic links), folders before their contents. */
function walk(path: string, into: Entry[] = []): Entry[] {
  const stats = lstatSync(path);
  into.push({ path, stats });
  if (stats.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name), into);
  return into;
}

/**
 * Makes DATA_DIR private to the server's user before anything opens it: creates it 0700 when it is
 * new; on an existing one, takes away every group/others bit from it and from Chirp's files (0600)
 * and folders (0700) in it — installs made before this had a readable folder and world-writable
 * database files.
 *
 * Refuses (one line, changing nothing) when a folder in it is writable by group or others: anyone
 * could then have put, swapped or linked files in it, so the operator must look before it is used
 * again. A folder only readable by others is our own earlier default and is fixed silently.
 */
export function makeDataDirPrivate(dataDir: string): { madePrivate: number } {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const top = statSync(dataDir);
  if (!top.isDirectory()) throw new StartRefusal(`Refusing to start: DATA_DIR ${dataDir} is not a folder.`);
  const entries = [
    { path: dataDir, stats: top },
    ...readdirSync(dataDir)
      .filter((name) => OURS.test(name))
      .flatMap((name) => walk(join(dataDir, name))),
  ];
  // Only the folder itself and Chirp's folders in it: a foreign folder others can write changes
  // nothing of ours.
  const open = entries.filter(({ stats }) => stats.isDirectory() && (stats.mode & OTHERS_WRITE) !== 0);
  if (open.length > 0) {
    const first = open[0]!;
    const where = first.path === dataDir ? 'it' : first.path;
    throw new StartRefusal(
      `Refusing to start: DATA_DIR ${dataDir} can be changed by other accounts on this machine ` +
        `(${where} has mode ${octal(first.stats.mode)}). Check that nobody else changed its files, then run ` +
        `"chmod -R go-rwx ${dataDir}" and start again.`,
    );
  }
  let madePrivate = 0;
  for (const { path, stats } of entries) {
    // A link is not followed: what it points to is not ours to change (and its own mode is unused).
    if (stats.isSymbolicLink() || (stats.mode & OTHERS) === 0) continue;
    try {
      chmodSync(path, stats.mode & 0o700);
    } catch (error) {
      throw new StartRefusal(
        `Refusing to start: ${path} in DATA_DIR is readable by other accounts and cannot be made private ` +
          `(${(error as NodeJS.ErrnoException).code ?? 'error'}); make the server's user own DATA_DIR and everything in it.`,
      );
    }
    madePrivate += 1;
  }
  return { madePrivate };
}
