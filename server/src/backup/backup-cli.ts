import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { toolEnv } from '../config/tool-env.js';
import { backupPglite, restorePglite } from './pglite-backup.js';

const USAGE = `Usage:
  npm run db:backup [-- <file>]    write the embedded database to <file> (default backups/chirp-<time>.tar.gz)
  npm run db:restore -- <file>     replace the embedded database with a backup (the server must be stopped)`;

/** `npm run db:backup` / `npm run db:restore` for the embedded PGlite database. */
async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  const env = toolEnv();
  if (env.DATABASE_URL) {
    console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump / pg_restore (docs/deploy.md, "Backups").');
    return 1;
  }
  if (command === 'backup') {
    const target = resolve(file ?? join('backups', `chirp-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`));
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const { bytes } = await backupPglite(env.dataDirPath, target);
    console.log(`Backed up ${env.dataDirPath} to ${target} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
    return 0;
  }
  if (command === 'restore' && file) {
    const { keptAs } = await restorePglite(env.dataDirPath, resolve(file));
    console.log(`Restored ${resolve(file)} into ${env.dataDirPath}.`);
    if (keptAs) console.log(`The database it replaced is kept in ${keptAs}; delete it when you no longer need it.`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
