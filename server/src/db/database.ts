import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './data-dir-lock.js';
import { PrivateNodeFS } from './private-node-fs.js';
import * as schema from './schema.js';

const MIGRATION_LOCK = 7_301_002;

/** Either driver behind one type: PGlite (embedded) and node-postgres speak the same Drizzle API. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The database or a transaction on it: what a store function runs its queries on. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Answers whether the database can run a query right now (readiness probe). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite in `<dataDir>/db`, and applies every pending
 * migration before anything else may use it.
 */
export async function openDatabase(options: {
  url: string | undefined;
  dataDir: string;
  migrationsFolder?: string;
}): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsFolder ?? locateMigrations();
  if (options.url) return openPostgres(options.url, migrationsFolder);
  return openPglite(pgliteDir(options.dataDir), migrationsFolder);
}

async function openPostgres(url: string, migrationsFolder: string): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that breaks (database restarted, failed over, dropped) is reported here; with
  // no listener Node would end the whole process. The next query opens a fresh connection.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  const db = drizzle({ client: pool, schema });
  // Drizzle's migrator takes no lock: instances starting together on a new release would both apply
  // the same migration and one would crash. A session lock lets one migrate while the others wait.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client: lockClient, schema }), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    lockClient.release();
  }
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDir = (dataDir: string) => join(dataDir, 'db');

async function openPglite(dir: string, migrationsFolder: string): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { withDrizzleParsers } = await import('./pglite-parsers.js');
  const memory = dir === 'memory://';
  // Private like the rest of DATA_DIR (the umask set at start covers the files PGlite creates).
  if (!memory) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const unlock = memory ? () => undefined : lockDataDir(`${dir}.lock`);
  const client = memory ? new PGlite(dir) : new PGlite({ fs: new PrivateNodeFS(dir) });
  let db: ReturnType<typeof drizzle>;
  try {
    db = drizzle({ client: await withDrizzleParsers(client), schema });
    await migrate(db, { migrationsFolder });
  } catch (error) {
    await client.close().catch(() => undefined);
    unlock();
    throw error;
  }
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

/** Migrations sit in server/drizzle both when run from source and from the compiled dist/ tree. */
function locateMigrations(): string {
  const fromSource = fileURLToPath(new URL('../../drizzle', import.meta.url));
  if (!fromSource.includes(join('dist', 'server'))) return fromSource;
  return fileURLToPath(new URL('../../../../../server/drizzle', import.meta.url));
}
