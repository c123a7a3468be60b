import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError } from '../db/data-dir-lock.js';
import { openDatabase, pgliteDir } from '../db/database.js';
import { channels, users } from '../db/schema.js';
import { backupPglite, restorePglite } from './pglite-backup.js';

const freshDataDir = () => mkdtempSync(join(tmpdir(), 'chirp-backup-'));

const addUser = async (dataDir: string, email: string) => {
  const database = await openDatabase({ url: undefined, dataDir });
  try {
    const [user] = await database.db
      .insert(users)
      .values({ issuer: 'https://issuer.test', subject: email, email })
      .returning();
    await database.db.insert(channels).values({ name: `${email}'s channel`, createdBy: user!.id });
  } finally {
    await database.close();
  }
};

const emailsIn = async (dataDir: string) => {
  const database = await openDatabase({ url: undefined, dataDir });
  try {
    const rows = await database.db.select({ email: users.email }).from(users).orderBy(users.email);
    const channelRows = await database.db.select({ name: channels.name }).from(channels);
    return { users: rows.map((r) => r.email), channels: channelRows.map((r) => r.name) };
  } finally {
    await database.close();
  }
};

describe('embedded database backup and restore', () => {
  let holder: ChildProcess | undefined;
  // A new PGlite database takes seconds to initialise; every test starts from a copy of this one.
  let seeded: string;
  beforeAll(async () => {
    seeded = freshDataDir();
    await addUser(seeded, 'ann@example.com');
  });
  const copyOfSeeded = () => {
    const dataDir = freshDataDir();
    cpSync(seeded, dataDir, { recursive: true });
    return dataDir;
  };

  afterEach(() => {
    holder?.kill();
    holder = undefined;
  });

  it('restores exactly the state at backup time, keeping the replaced database beside it', async () => {
    const dataDir = copyOfSeeded();
    const file = join(dataDir, 'backup.tar.gz');
    const { bytes } = await backupPglite(dataDir, file);
    expect(bytes).toBeGreaterThan(1000);

    await addUser(dataDir, 'bob@example.com');
    const database = await openDatabase({ url: undefined, dataDir });
    await database.db.delete(users).where(eq(users.email, 'ann@example.com'));
    await database.close();
    expect(await emailsIn(dataDir)).toEqual({ users: ['bob@example.com'], channels: ["bob@example.com's channel"] });

    const { keptAs } = await restorePglite(dataDir, file);
    expect(await emailsIn(dataDir)).toEqual({ users: ['ann@example.com'], channels: ["ann@example.com's channel"] });
    expect(keptAs && existsSync(keptAs)).toBe(true);
  });

  it('restores into a data directory that has no database yet', async () => {
    const source = copyOfSeeded();
    const file = join(source, 'backup.tar.gz');
    await backupPglite(source, file);
    const target = freshDataDir();
    expect((await restorePglite(target, file)).keptAs).toBeUndefined();
    expect((await emailsIn(target)).users).toEqual(['ann@example.com']);
  });

  it('refuses a file that is not a backup and leaves the current database in place', async () => {
    const dataDir = copyOfSeeded();
    const bogus = join(dataDir, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a tarball');
    await expect(restorePglite(dataDir, bogus)).rejects.toThrow(/not a Chirp database backup/);
    expect((await emailsIn(dataDir)).users).toEqual(['ann@example.com']);
  });

  it('refuses while another live process holds the database, and takes over a stale lock', async () => {
    const dataDir = copyOfSeeded();
    const lock = `${pgliteDir(dataDir)}.lock`;
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    writeFileSync(lock, String(holder.pid));
    await expect(backupPglite(dataDir, join(dataDir, 'b.tar.gz'))).rejects.toThrow(DatabaseInUseError);
    await expect(openDatabase({ url: undefined, dataDir })).rejects.toThrow(/stop the Chirp server first/);

    holder.kill();
    await new Promise((resolve) => holder!.once('exit', resolve));
    await backupPglite(dataDir, join(dataDir, 'b.tar.gz'));
    expect(existsSync(lock)).toBe(false);
  });
});
