import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../protocol/account.js';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person } from '../testing/people.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { localAccountOf } from '../auth/provider/account-maintenance.js';
import { users } from '../db/schema.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { TestSocket } from '../testing/test-socket.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { giveUserData, rowsReferencing } from '../testing/user-data.js';

describe.each(testDatabases())('own account (Settings) on $name', (database) => {
  let server: TestServer;
  const quiet = { print: () => undefined };

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const changePassword = (person: Person, json: unknown) =>
    person.client.request('/api/account/password', { method: 'POST', json });
  const signInWith = async (email: string, password: string) => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Anyone', email, password });
    return { client, status: (await client.request('/api/auth/user')).status };
  };

  it('changes the password with the current one; other devices are signed out, this one stays', async () => {
    const pia = await signIn(server, 'Pia Pass', 'pia@example.com');
    const otherDevice = await signInWith('pia@example.com', 'correct horse battery');
    expect(otherDevice.status).toBe(200);

    const changed = await changePassword(pia, { currentPassword: 'correct horse battery', newPassword: 'purple staple battery' });
    expect(changed.status).toBe(200);
    expect(await body(changed)).toEqual({ message: 'Password changed' });

    expect((await pia.client.request('/api/auth/user')).status).toBe(200);
    expect((await otherDevice.client.request('/api/auth/user')).status).toBe(401);
    expect((await signInWith('pia@example.com', 'correct horse battery')).status).toBe(401);
    expect((await signInWith('pia@example.com', 'purple staple battery')).status).toBe(200);
  });

  it('refuses a wrong current password, a short new one and a guest, changing nothing', async () => {
    const quinn = await signIn(server, 'Quinn Careful', 'quinn@example.com');
    const wrong = await changePassword(quinn, { currentPassword: 'not my password', newPassword: 'whatever long enough' });
    expect(wrong.status).toBe(403);
    expect(await body(wrong)).toEqual({ message: 'Your current password is not correct' });
    const short = await changePassword(quinn, { currentPassword: 'correct horse battery', newPassword: 'short' });
    expect(short.status).toBe(400);
    expect((await body<{ message: string }>(short)).message).toContain('Passwords are at least 8 characters');
    const guest = await new TestClient(server.baseUrl).request('/api/account/password', {
      method: 'POST',
      json: { currentPassword: 'correct horse battery', newPassword: 'purple staple battery' },
    });
    expect(guest.status).toBe(401);
    expect((await signInWith('quinn@example.com', 'correct horse battery')).status).toBe(200);
  });

  it('says whether the account has a password here, and which channels would go with it', async () => {
    const ray = await signIn(server, 'Ray Admin', 'ray@example.com');
    await runAdminCommand(server.database.db, ['set-tier', ray.id, 'admin'], quiet);
    await ray.client.request('/api/channels', { method: 'POST', json: { name: 'Ray Radio' } });
    const account = await body<Account>(await ray.client.request('/api/account'));
    expect(account).toEqual({ passwordSignIn: true, createdChannels: [expect.objectContaining({ name: 'Ray Radio', memberCount: 1 })] });
  });

  it('deletes the account with its password: data gone, signed out, the e-mail free again', async () => {
    const sam = await signIn(server, 'Sam Leaving', 'sam@example.com');
    const tess = await signIn(server, 'Tess Staying', 'tess@example.com');
    for (const p of [sam, tess]) await runAdminCommand(server.database.db, ['set-tier', p.id, 'admin'], quiet);
    const { ownChannel, otherChannel } = await giveUserData(server.database.db, sam, tess);
    const samSocket = await TestSocket.open(sam.client);
    const samClosed = new Promise<number>((resolve) => samSocket.ws.once('close', (code) => resolve(code)));
    const tessSocket = await TestSocket.open(tess.client);
    // Tess has her channel open: she sees who is in it.
    tessSocket.send({ type: 'join_channel', channelId: otherChannel, userId: tess.id });
    await tessSocket.next((m: { type?: string; channelId?: number }) => m.type === 'member_update' && m.channelId === otherChannel);
    const samRow = (await server.database.db.select().from(users)).find((u) => u.id === sam.id)!;
    const account = await localAccountOf(server.database.db, samRow);

    const refused = await sam.client.request('/api/account', { method: 'DELETE', json: { password: 'not it' } });
    expect(refused.status).toBe(403);
    expect((await sam.client.request('/api/account', { method: 'DELETE', json: {} })).status).toBe(403);
    expect((await sam.client.request('/api/auth/user')).status).toBe(200);

    const deleted = await sam.client.request('/api/account', { method: 'DELETE', json: { password: 'correct horse battery' } });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.getSetCookie().join()).toMatch(/chirp_session=;/);
    const left = await rowsReferencing(server.database.db, sam.id, account!.id);
    expect(Object.values(left).every((n) => n === 0), JSON.stringify(left)).toBe(true);
    const members = await body<{ id: string }[]>(await tess.client.request(`/api/channels/${otherChannel}/members`));
    expect(members.map((m) => m.id)).toEqual([tess.id]);
    // Live: Tess is told Sam's channel is gone and Sam left hers; Sam's own socket is closed.
    await tessSocket.next((m: { type?: string; change?: string; channelId?: number }) =>
      m.type === 'channel_changed' && m.change === 'channel_deleted' && m.channelId === ownChannel);
    await tessSocket.next((m: { type?: string; change?: string; channelId?: number }) =>
      m.type === 'channel_changed' && m.change === 'member_removed' && m.channelId === otherChannel);
    expect(await samClosed).toBe(WS_CLOSE_CODES.unauthorized);
    tessSocket.ws.close();

    const again = await signInWith('sam@example.com', 'a different password');
    expect(again.status).toBe(200);
    expect((await body<User>(await again.client.request('/api/auth/user'))).id).not.toBe(sam.id);
  });

  it('an account of an external provider has no password here and deletes with confirmation alone', async () => {
    const [external] = await server.database.db
      .insert(users)
      .values({ issuer: 'https://accounts.example.org', subject: 'ext-42', email: 'ext@example.com' })
      .returning();
    // Signed in as that user through a session made for them (the external provider cannot run here).
    const { createSession } = await import('../auth/session-store.js');
    const token = await createSession(server.database.db, external!.id, undefined);
    const client = new TestClient(server.baseUrl);
    client.cookies.set('chirp_session', token);
    expect(await body<Account>(await client.request('/api/account'))).toEqual({ passwordSignIn: false, createdChannels: [] });
    const change = await client.request('/api/account/password', {
      method: 'POST',
      json: { currentPassword: 'x', newPassword: 'long enough password' },
    });
    expect(change.status).toBe(400);
    expect(await body(change)).toEqual({ message: 'Your password is managed by your sign-in provider' });
    expect((await client.request('/api/account', { method: 'DELETE', json: {} })).status).toBe(200);
    expect(await rowsReferencing(server.database.db, external!.id)).toMatchObject({ users: 0, sessions: 0 });
  });
});

describe.each(testDatabases())('password guesses through a signed-in session on $name', (database) => {
  let server: TestServer;
  /** The delays the password slow-down asked for, recorded instead of waited out. */
  const waited: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(await database.open(), {}, { signInSleep: async (ms) => void waited.push(ms) });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('are slowed per account like guesses at the sign-in page, and count there too', async () => {
    // Whoever holds Vic's session (a stolen cookie) guesses her password through Settings.
    const stolen = await signIn(server, 'Vic Victim', 'vic@example.com');
    waited.length = 0;
    for (let i = 0; i < 5; i++) {
      const guess = await stolen.client.request('/api/account/password', {
        method: 'POST',
        json: { currentPassword: `guess number ${i}`, newPassword: 'the thief password' },
      });
      expect(guess.status).toBe(403);
    }
    expect(waited).toEqual([]); // the first failures are free, as at the sign-in page
    const sixth = await stolen.client.request('/api/account', { method: 'DELETE', json: { password: 'guess number 5' } });
    expect(sixth.status).toBe(403);
    const seventh = await stolen.client.request('/api/account/password', {
      method: 'POST',
      json: { currentPassword: 'guess number 6', newPassword: 'the thief password' },
    });
    expect(seventh.status).toBe(403);
    expect(waited).toEqual([1000, 2000]);
    // The account is under attack: the sign-in page slows even Vic's right password (the 8th place).
    waited.length = 0;
    const vic = new TestClient(server.baseUrl);
    await signInBuiltIn(vic, { name: '', email: 'vic@example.com' });
    expect((await vic.request('/api/auth/user')).status).toBe(200);
    expect(waited).toEqual([4000]);
  });

  it('never slow a right password on an account nobody is attacking, whatever its address has seen', async () => {
    const wendy = await signIn(server, 'Wendy Calm', 'wendy@example.com');
    waited.length = 0;
    const changed = await wendy.client.request('/api/account/password', {
      method: 'POST',
      json: { currentPassword: 'correct horse battery', newPassword: 'purple staple battery' },
    });
    expect(changed.status).toBe(200);
    const deleted = await wendy.client.request('/api/account', { method: 'DELETE', json: { password: 'purple staple battery' } });
    expect(deleted.status).toBe(200);
    expect(waited).toEqual([]);
  });
});
