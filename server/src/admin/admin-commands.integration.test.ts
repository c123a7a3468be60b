import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person } from '../testing/people.js';
import { localAccountOf } from '../auth/provider/account-maintenance.js';
import { users } from '../db/schema.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { findUserById } from '../users/user-directory.js';
import { giveUserData, rowsReferencing } from '../testing/user-data.js';
import { runAdminCommand, UsageError } from './admin-commands.js';

describe.each(testDatabases())('npm run admin on $name', (database) => {
  let server: TestServer;
  let ann: Person, bob: Person;

  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdminCommand(server.database.db, argv, { print: (line) => lines.push(line) }, {
      superadminEmails: ['listed@example.com'],
    });
    return { code, out: lines.join('\n') };
  };
  const tierOf = async (person: Person) => (await body<User>(await person.client.request('/api/auth/user'))).subscriptionTier;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ann = await signIn(server, 'Ann Admin', 'ann@example.com');
    bob = await signIn(server, 'Bob Builder', 'bob@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('users lists everyone with e-mail, name, tier and sign-in provider', async () => {
    const { code, out } = await admin('users');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`${ann.id}\\s+ann@example.com\\s+Ann Admin\\s+\\w+\\s+built-in`));
    expect(out).toMatch(new RegExp(`${bob.id}\\s+bob@example.com\\s+Bob Builder\\s+\\w+\\s+built-in`));
    expect(out).toContain('2 user(s)');
  });

  it('set-tier changes the tier the user sees, by e-mail or id, and refuses superadmin and bad tiers', async () => {
    expect((await admin('set-tier', 'BOB@example.com', 'member')).code).toBe(0);
    expect(await tierOf(bob)).toBe('member');
    expect((await admin('set-tier', bob.id, 'admin')).out).toContain('member -> admin');
    expect(await tierOf(bob)).toBe('admin');
    await expect(admin('set-tier', bob.id, 'superadmin')).rejects.toThrow(UsageError);
    await expect(admin('set-tier', 'nobody@example.com', 'free')).rejects.toThrow('No user nobody@example.com');
    await admin('grant-superadmin', ann.id);
    await expect(admin('set-tier', ann.id, 'free')).rejects.toThrow(/revoke-superadmin/);
    expect(await tierOf(ann)).toBe('superadmin');
  });

  it('grant-superadmin and revoke-superadmin give and take the owner role', async () => {
    await admin('set-tier', bob.id, 'member');
    expect((await admin('grant-superadmin', bob.email)).out).toContain('is now superadmin (was member)');
    expect(await tierOf(bob)).toBe('superadmin');
    // A superadmin may now use the superadmin-only endpoint.
    expect((await bob.client.request(`/api/users/${ann.id}/subscription`, { method: 'POST', json: { subscriptionTier: 'admin' } })).status).toBe(200);
    expect((await admin('revoke-superadmin', bob.email)).out).toContain('is now admin');
    expect(await tierOf(bob)).toBe('admin');
    await expect(admin('revoke-superadmin', bob.email)).rejects.toThrow('is not superadmin');
    await admin('grant-superadmin', bob.email);
    await admin('revoke-superadmin', bob.email, 'free');
    expect(await tierOf(bob)).toBe('free');
  });

  it('revoke-superadmin warns when SUPERADMIN_EMAILS would grant it again', async () => {
    const listed = await signIn(server, 'Lis Ted', 'listed@example.com');
    await admin('grant-superadmin', listed.id);
    expect((await admin('revoke-superadmin', listed.id)).out).toContain('SUPERADMIN_EMAILS');
  });

  it('reset-password gives a built-in account a new password and ends its sessions', async () => {
    const cy = await signIn(server, 'Cy Reset', 'cy@example.com');
    const { out } = await admin('reset-password', 'cy@example.com');
    const password = /New password for cy@example.com: (\S+)/.exec(out)?.[1];
    expect(password).toBeDefined();
    expect((await cy.client.request('/api/auth/user')).status).toBe(401);

    const oldPassword = await signInBuiltIn(new TestClient(server.baseUrl), { name: 'Cy Reset', email: 'cy@example.com' });
    expect(await oldPassword.text()).toContain('Wrong email or password');
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Cy Reset', email: 'cy@example.com', password: password! });
    expect((await body<User>(await client.request('/api/auth/user'))).id).toBe(cy.id);

    await admin('reset-password', cy.id, '--password', 'chosen by the operator');
    const chosen = new TestClient(server.baseUrl);
    await signInBuiltIn(chosen, { name: 'Cy Reset', email: 'cy@example.com', password: 'chosen by the operator' });
    expect((await chosen.request('/api/auth/user')).status).toBe(200);
    await expect(admin('reset-password', cy.id, '--password', 'short')).rejects.toThrow('at least 8');
  });

  it('reset-password refuses a user of an external provider, and an ambiguous e-mail names the ids', async () => {
    const [external] = await server.database.db
      .insert(users)
      .values({ issuer: 'https://accounts.example.org', subject: 'ext-1', email: 'ann@example.com' })
      .returning();
    await expect(admin('reset-password', external!.id)).rejects.toThrow(/accounts.example.org: reset the password there/);
    const ambiguous = await admin('set-tier', 'ann@example.com', 'member').catch((error: Error) => error.message);
    expect(ambiguous).toContain('names several users');
    expect(ambiguous).toContain(external!.id);
    expect(ambiguous).toContain(ann.id);
    await admin('delete-user', external!.id, '--yes');
  });

  it('delete-user shows what goes without --yes, then deletes the user and all their data', async () => {
    const dee = await signIn(server, 'Dee Parting', 'dee@example.com');
    const eli = await signIn(server, 'Eli Staying', 'eli@example.com');
    await admin('set-tier', dee.id, 'admin');
    await admin('set-tier', eli.id, 'admin');
    const { ownChannel, otherChannel } = await giveUserData(server.database.db, dee, eli);
    const before = await server.database.db.select().from(users);
    const account = await localAccountOf(server.database.db, (await server.database.db.select().from(users)).find((u) => u.id === dee.id)!);

    const dry = await admin('delete-user', 'dee@example.com');
    expect(dry.code).toBe(1);
    expect(dry.out).toContain(`#${ownChannel} Dee Parting's channel (2 member(s))`);
    expect((await server.database.db.select().from(users)).length).toBe(before.length);

    const done = await admin('delete-user', 'dee@example.com', '--yes');
    expect(done.code).toBe(0);
    expect(done.out).toContain('and 1 channel(s) they created; their built-in sign-in account is gone too');
    const left = await rowsReferencing(server.database.db, dee.id, account!.id);
    expect(Object.values(left).every((n) => n === 0), JSON.stringify(left)).toBe(true);

    expect((await dee.client.request('/api/auth/user')).status).toBe(401);
    expect(await findUserById(server.database.db, eli.id)).not.toBeNull();
    expect((await eli.client.request(`/api/channels/${otherChannel}/members`)).status).toBe(200);
    expect((await eli.client.request(`/api/channels/${ownChannel}/members`)).status).toBe(404);

    // The e-mail is free again: signing in creates a new, empty account with any password.
    const again = new TestClient(server.baseUrl);
    await signInBuiltIn(again, { name: 'Dee Again', email: 'dee@example.com', password: 'a brand new password' });
    const reborn = await body<User>(await again.request('/api/auth/user'));
    expect(reborn.id).not.toBe(dee.id);
  });

  it('unknown commands and missing arguments are usage errors; help prints the usage', async () => {
    await expect(admin('frobnicate')).rejects.toThrow(/Unknown command frobnicate/);
    await expect(admin('delete-user')).rejects.toThrow('Name the user');
    expect((await admin('help')).out).toContain('grant-superadmin <user>');
  });
});
