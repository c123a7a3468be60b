import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { users } from './schema.js';

const adminUrl = process.env.TEST_DATABASE_URL;

/** Needs PostgreSQL, so it runs when TEST_DATABASE_URL is set (CI sets it). */
describe.runIf(adminUrl)('migrations at start on PostgreSQL', () => {
  it('several instances starting at once on a new database all come up', async () => {
    const name = `chirp_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl! });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(adminUrl!);
      url.pathname = `/${name}`;
      const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ url: url.href, dataDir: tmpdir() })));
      for (const instance of instances) expect(await instance.db.select().from(users)).toEqual([]);
      await Promise.all(instances.map((instance) => instance.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
