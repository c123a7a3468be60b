import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, pgliteDir } from '../db/database.js';

/** Where a run's migrated templates are announced to its test workers (they inherit the environment). */
export const PGLITE_TEMPLATE_VARIABLE = 'CHIRP_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_VARIABLE = 'CHIRP_TEST_POSTGRES_TEMPLATE';

/** A database URL with another database name. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * Makes, once per test run, a fully migrated PGlite data folder and (with TEST_DATABASE_URL) a
 * migrated PostgreSQL database, and announces both in the environment: each test database is then
 * a copy of one (a folder copy, `CREATE DATABASE ... TEMPLATE`) instead of a new cluster plus every
 * migration. A new PGlite runs initdb in WebAssembly: 3 s on an idle two-core machine, over 10 s on
 * a loaded one, where a copy opens in under a second. Returns the clean-up (drops the PostgreSQL
 * template; the PGlite one lives in the run's scratch folder).
 */
export async function makeDatabaseTemplates(): Promise<() => Promise<void>> {
  const pgliteDataDir = mkdtempSync(join(tmpdir(), 'chirp-template-'));
  const pglite = await openDatabase({ url: undefined, dataDir: pgliteDataDir });
  await pglite.close();
  process.env[PGLITE_TEMPLATE_VARIABLE] = pgliteDir(pgliteDataDir);

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return async () => undefined;
  const name = `chirp_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const postgres = await openDatabase({ url: databaseUrl(adminUrl, name), dataDir: tmpdir() });
  await postgres.close();
  process.env[POSTGRES_TEMPLATE_VARIABLE] = name;
  return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}
