import { mkdtempSync } from 'node:fs';
import { stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { ACCOUNT_MESSAGES } from '../../../protocol/account.js';
import { body, signIn, signInOwner, type Person } from '../testing/people.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { upsertUserFromClaims } from '../auth/user-accounts.js';
import type { DatabaseHandle } from '../db/database.js';
import { ownerSetupCodes } from '../db/schema.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { setupCodeFile } from './setup-code.js';

const me = async (person: Person) => body<User>(await person.client.request('/api/auth/user'));
const claim = (person: Person, code: string) =>
  person.client.request('/api/setup/claim', { method: 'POST', json: { code } });
const wrongGuesses = (person: Person, count: number, tag: string) =>
  Promise.all(Array.from({ length: count }, (_, i) => claim(person, `WRONG-${tag}-${String(i).padStart(5, '0')}`)));
const status = async (person: Person) => body<{ ownerClaimed: boolean }>(await person.client.request('/api/setup'));

describe.each(testDatabases())('claiming a fresh server on $name', (database) => {
  let server: TestServer;
  let first: Person, owner: Person, late: Person;
  let code: string;

  beforeAll(async () => {
    // SUPERADMIN_EMAILS names the boss, but the built-in provider never says an address is verified.
    server = await startTestServer(await database.open(), { SUPERADMIN_EMAILS: 'boss@example.com' });
    code = (await readFile(setupCodeFile(server.config.dataDir), 'utf8')).trim();
    first = await signIn(server, 'Stan Stranger', 'stan@example.com');
    owner = await signIn(server, 'Olga Owner', 'olga@example.com');
    late = await signIn(server, 'Lou Late', 'lou@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('writes a one-time code the operator alone can read, and stores only its hash', async () => {
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect((await stat(setupCodeFile(server.config.dataDir))).mode & 0o777).toBe(0o600);
    const rows = await server.database.db.select().from(ownerSetupCodes);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(code.replace(/-/g, ''));
  });

  it('does not make the first user, nor an unverified listed e-mail, the superadmin', async () => {
    expect((await me(first)).subscriptionTier).toBe('free');
    const impostor = await signIn(server, 'Boss Fake', 'BOSS@example.com');
    expect((await me(impostor)).subscriptionTier).toBe('free');
    expect(await status(first)).toEqual({ ownerClaimed: false });
  });

  it('refuses a wrong code and guests, changing nothing', async () => {
    const wrong = await claim(first, 'AAAAA-AAAAA-AAAAA-AAAAA');
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: 'That setup code is not right' });
    const guest = await new TestClient(server.baseUrl).request('/api/setup/claim', { method: 'POST', json: { code } });
    expect(guest.status).toBe(401);
    expect((await me(first)).subscriptionTier).toBe('free');
  });

  it('makes whoever enters the code the owner, once, and then forgets the code', async () => {
    // Typed as a person would: lower case, spaces instead of dashes.
    const response = await claim(owner, code.toLowerCase().replace(/-/g, ' '));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: owner.id, subscriptionTier: 'superadmin' });
    expect((await me(owner)).subscriptionTier).toBe('superadmin');
    expect(await status(late)).toEqual({ ownerClaimed: true });
    const again = await claim(late, code);
    expect(again.status).toBe(409);
    expect((await me(late)).subscriptionTier).toBe('free');
    expect(await server.database.db.select().from(ownerSetupCodes)).toEqual([]);
    await expect(stat(setupCodeFile(server.config.dataDir))).rejects.toThrow();
  });

  it('mints no code on a restart once the server has an owner', async () => {
    const again = await startTestServer(server.database, { DATA_DIR: server.config.dataDir });
    try {
      await expect(stat(setupCodeFile(again.config.dataDir))).rejects.toThrow();
      expect(await server.database.db.select().from(ownerSetupCodes)).toEqual([]);
    } finally {
      await again.close();
    }
  });
});

describe('the setup code for the operator', () => {
  const start = async (logLevel: string) => {
    const notices: string[] = [];
    const log: string[] = [];
    const server = await startTestServer(
      await testDatabases()[0]!.open(),
      { LOG_LEVEL: logLevel },
      { logStream: { write: (line: string) => void log.push(line) }, operatorNotice: (text) => void notices.push(text) },
    );
    const code = (await readFile(setupCodeFile(server.config.dataDir), 'utf8')).trim();
    await server.close();
    await server.database.close();
    return { notices, log, code, file: setupCodeFile(server.config.dataDir) };
  };

  it('is printed as a plain framed banner beside its JSON log line', async () => {
    const { notices, log, code, file } = await start('info');
    expect(notices).toHaveLength(1);
    const lines = notices[0]!.trim().split('\n');
    // A box: a rule above and below, every line between framed at the same width.
    expect(lines[0]).toMatch(/^\+-+\+$/);
    expect(lines.at(-1)).toBe(lines[0]);
    for (const line of lines.slice(1, -1)) {
      expect(line).toMatch(/^\| {2}.* {2}\|$/);
      expect(line).toHaveLength(lines[0]!.length);
    }
    expect(notices[0]).toContain(`This server has no owner yet. Owner setup code: ${code}`);
    expect(notices[0]).toContain('"Claim this server"');
    expect(notices[0]).toContain(file);
    // The log keeps README's line (a JSON record, as production writes it).
    const record = log.map((line) => JSON.parse(line) as { msg?: string }).find((r) => r.msg?.includes(code));
    expect(record?.msg).toContain(`This server has no owner yet. Owner setup code: ${code} — sign in`);
  });

  it('is printed even when the log shows errors only', async () => {
    const { notices, log, code } = await start('error');
    expect(notices.join('')).toContain(`Owner setup code: ${code}`);
    expect(log.join('')).not.toContain(code);
  });
});

describe.each(testDatabases())('a deployment whose DATA_DIR does not exist yet, on $name', (database) => {
  it('still writes the setup code file there', async () => {
    // SESSION_SECRET given (several instances share one): nothing else creates the folder first.
    const dataDir = join(mkdtempSync(join(tmpdir(), 'chirp-fresh-')), 'data');
    const server = await startTestServer(await database.open(), {
      DATA_DIR: dataDir,
      SESSION_SECRET: 'a-configured-session-secret-of-32-chars-or-more',
    });
    try {
      const code = (await readFile(setupCodeFile(dataDir), 'utf8')).trim();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    } finally {
      await server.close();
      await server.database.close();
    }
  });
});

describe.each(testDatabases())('setup codes of several starts, on $name', (database) => {
  it('only the newest claims the server: a start replaces every earlier code, on every instance', async () => {
    const first = await startTestServer(await database.open());
    const second = await startTestServer(first.database);
    try {
      const oldCode = (await readFile(setupCodeFile(first.config.dataDir), 'utf8')).trim();
      const newCode = (await readFile(setupCodeFile(second.config.dataDir), 'utf8')).trim();
      expect(newCode).not.toBe(oldCode);
      // The code printed by the first start is refused even by the instance that printed it.
      const olga = await signIn(first, 'Olga Owner', 'olga@example.com');
      const stale = await claim(olga, oldCode);
      expect(stale.status).toBe(400);
      expect((await me(olga)).subscriptionTier).toBe('free');
      expect(await first.database.db.select().from(ownerSetupCodes)).toHaveLength(1);
      expect((await claim(olga, newCode)).status).toBe(200);
      expect((await me(olga)).subscriptionTier).toBe('superadmin');
    } finally {
      await second.close();
      await first.close();
      await first.database.close();
    }
  });
});

describe.each(testDatabases())('setup code guesses on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it("are limited per person, in parallel too, and other people's guesses from the owner's address do not lock the owner out", async () => {
    const guesser = await signIn(server, 'Gia Guess', 'gia@example.com');
    const code = (await readFile(setupCodeFile(server.config.dataDir), 'utf8')).trim();
    const guesses = await wrongGuesses(guesser, 11, 'g');
    expect(guesses.map((r) => r.status).sort()).toEqual([...Array<number>(10).fill(400), 429]);
    expect((await claim(guesser, code)).status).toBe(429);
    expect((await me(guesser)).subscriptionTier).toBe('free');
    // The owner, from the same machine, has not been guessing: the right code claims the server.
    const owner = await signIn(server, 'Oz Owner', 'oz@example.com');
    expect((await claim(owner, code)).status).toBe(200);
    expect((await me(owner)).subscriptionTier).toBe('superadmin');
  });
});

describe.each(testDatabases())('setup code guesses from one address on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('stop being checked for anyone who has guessed wrong once the address has made 100 wrong guesses', async () => {
    const code = (await readFile(setupCodeFile(server.config.dataDir), 'utf8')).trim();
    for (let i = 0; i < 10; i++) {
      const person = await signIn(server, `Guesser ${i}`, `guesser${i}@example.com`);
      const statuses = (await wrongGuesses(person, 10, `a${i}`)).map((r) => r.status);
      expect(statuses).toEqual(Array<number>(10).fill(400));
    }
    const late = await signIn(server, 'Lee Late', 'lee@example.com');
    expect((await claim(late, 'WRONG-LATE')).status).toBe(400);
    expect((await claim(late, code)).status).toBe(429);
    expect((await me(late)).subscriptionTier).toBe('free');
    // Someone who has not guessed is still checked there: the right code still claims the server.
    const owner = await signIn(server, 'Ola Owner', 'ola@example.com');
    expect((await claim(owner, code)).status).toBe(200);
  });
});

describe.each(testDatabases())('a listed e-mail on $name', (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('grants superadmin only when the provider says the address is verified', async () => {
    const issuer = 'https://id.example';
    const list = ['boss@example.com'];
    const unverified = await upsertUserFromClaims(handle.db, issuer, { sub: 'a', email: 'Boss@Example.com' }, list);
    expect(unverified.subscriptionTier).toBe('free');
    const saidNo = await upsertUserFromClaims(handle.db, issuer, { sub: 'a', email: 'boss@example.com', email_verified: false }, list);
    expect(saidNo.subscriptionTier).toBe('free');
    const verified = await upsertUserFromClaims(handle.db, issuer, { sub: 'a', email: 'Boss@Example.com', email_verified: true }, list);
    expect(verified).toMatchObject({ id: unverified.id, subscriptionTier: 'superadmin' });
  });
});

describe.each(testDatabases())('the last owner on $name', (database) => {
  let server: TestServer;
  let owner: Person, heir: Person;
  const quiet = { print: () => undefined };

  beforeAll(async () => {
    server = await startTestServer(await database.open(), { SIGNUP: 'invite' });
    // Both accounts are made while the server has no owner yet; then Ona claims it.
    heir = await signIn(server, 'Hal Heir', 'hal@example.com');
    owner = await signInOwner(server, 'Ona Owner', 'ona@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const deleteOwn = (person: Person) =>
    person.client.request('/api/account', { method: 'DELETE', json: { password: 'correct horse battery' } });
  const runAdmin = (...argv: string[]) => runAdminCommand(server.database.db, argv, quiet);

  it('cannot delete their own account: the invite-only server would be left open and unclaimable', async () => {
    const refused = await deleteOwn(owner);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: ACCOUNT_MESSAGES.onlyOwner });
    expect((await me(owner)).subscriptionTier).toBe('superadmin');
    expect(await status(owner)).toEqual({ ownerClaimed: true });
    // Strangers still cannot sign up.
    const stranger = new TestClient(server.baseUrl);
    expect((await signInBuiltIn(stranger, { name: 'Sly Stranger', email: 'sly@example.com' })).status).toBe(403);
  });

  it('is neither deleted nor demoted by the admin command, which says what to do instead', async () => {
    await expect(runAdmin('delete-user', owner.id, '--yes')).rejects.toThrow(/only superadmin.*grant-superadmin/);
    await expect(runAdmin('revoke-superadmin', owner.id)).rejects.toThrow(/only superadmin.*grant-superadmin/);
    expect((await me(owner)).subscriptionTier).toBe('superadmin');
    expect(await status(owner)).toEqual({ ownerClaimed: true });
  });

  it('can go once someone else owns the server too, and then that one is the last', async () => {
    await runAdmin('grant-superadmin', heir.id);
    expect((await deleteOwn(owner)).status).toBe(200);
    expect(await status(heir)).toEqual({ ownerClaimed: true });
    await expect(runAdmin('revoke-superadmin', heir.id)).rejects.toThrow(/only superadmin/);
    expect((await deleteOwn(heir)).status).toBe(409);
  });
});
