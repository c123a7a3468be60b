import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/database.js';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
}

/**
 * The databases integration tests run on: PGlite always, and a real PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each open() is a brand-new, fully migrated database.
 */
export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'pglite', open: openTestPglite }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: 'postgres', open: () => openTestPostgres(url) });
  return list;
}

async function openTestPglite(): Promise<DatabaseHandle> {
  return openDatabase({ url: undefined, dataDir: mkdtempSync(join(tmpdir(), 'chirp-test-')) });
}

/** A throwaway database on the test server, dropped again on close. */
async function openTestPostgres(adminUrl: string): Promise<DatabaseHandle> {
  const name = `chirp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.href, dataDir: tmpdir() });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
