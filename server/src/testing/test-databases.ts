import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, pgliteDir, type DatabaseHandle } from '../db/database.js';
import {
  adminQuery,
  databaseUrl,
  PGLITE_TEMPLATE_VARIABLE,
  POSTGRES_TEMPLATE_VARIABLE,
} from './database-templates.js';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
}

/**
 * The databases integration tests run on: PGlite always, and a real PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each open() is a brand-new, fully migrated database: a copy
 * of the run's migrated template when the run made one (see database-templates.ts), else built anew.
 */
export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'pglite', open: openTestPglite }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: 'postgres', open: () => openTestPostgres(url) });
  return list;
}

async function openTestPglite(): Promise<DatabaseHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chirp-test-'));
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (template) cpSync(template, pgliteDir(dataDir), { recursive: true });
  // Opening still applies any migration the copy lacks (none): the same path as a real start.
  return openDatabase({ url: undefined, dataDir });
}

/** A throwaway database on the test server, dropped again on close. */
async function openTestPostgres(adminUrl: string): Promise<DatabaseHandle> {
  const name = `chirp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_VARIABLE];
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const handle = await openDatabase({ url: databaseUrl(adminUrl, name), dataDir: tmpdir() });
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
