import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteResponse } from '../../../protocol/invites.js';
import type { User } from '../../../protocol/user.js';
import { body, createChannel, signInOwner, type Person } from '../testing/people.js';
import { localAccounts } from '../db/schema.js';
import { claimServer } from '../testing/owner.js';
import { UNOWNED_SIGNUPS_PER_ADDRESS } from './provider/signup-policy.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const INVITE_ONLY = 'This Chirp server is invite-only';

describe.each(testDatabases())('SIGNUP=invite on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let inviteUrl: URL;

  beforeAll(async () => {
    server = await startTestServer(await database.open(), { SIGNUP: 'invite', SUPERADMIN_EMAILS: 'boss@example.com' });
    // An unowned server lets its first account be made, so that the owner can claim it.
    owner = await signInOwner(server, 'Olga Owner', 'olga@example.com');
    const channelId = await createChannel(owner, 'Family');
    inviteUrl = new URL(
      (await body<InviteResponse>(await owner.client.request(`/api/invite/generate?channelId=${channelId}`))).inviteUrl,
    );
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const accountCount = async () => (await server.database.db.select().from(localAccounts)).length;
  const me = async (client: TestClient) => client.request('/api/auth/user');

  it('refuses to create an account for a stranger, creating nothing', async () => {
    const before = await accountCount();
    const stranger = new TestClient(server.baseUrl);
    const response = await signInBuiltIn(stranger, { name: 'Sam Stranger', email: 'sam@example.com' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(INVITE_ONLY);
    expect((await me(stranger)).status).toBe(401);
    expect(await accountCount()).toBe(before);
  });

  it('creates an account for someone who arrives with a valid invite link, and returns them to it', async () => {
    const invitee = new TestClient(server.baseUrl);
    const returnTo = inviteUrl.pathname + inviteUrl.search;
    const response = await signInBuiltIn(invitee, { name: 'Ivy Invited', email: 'ivy@example.com' }, returnTo);
    // Back on the invite link (this API-only test server has no page there), signed in.
    expect(response.url).toBe(new URL(returnTo, server.baseUrl).href);
    expect((await me(invitee)).status).toBe(200);
  });

  it('refuses a made-up or expired invite token as a ticket in', async () => {
    const faker = new TestClient(server.baseUrl);
    const response = await signInBuiltIn(faker, { name: 'Fay Fake', email: 'fay@example.com' }, `/?channel=1&invite=${'x'.repeat(43)}`);
    expect(response.status).toBe(403);
    expect((await me(faker)).status).toBe(401);
  });

  it('does not let an address listed in SUPERADMIN_EMAILS open sign-up: anyone could type it', async () => {
    const before = await accountCount();
    const impostor = new TestClient(server.baseUrl);
    const response = await signInBuiltIn(impostor, { name: 'Bo Fake', email: 'Boss@Example.com' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(INVITE_ONLY);
    expect((await me(impostor)).status).toBe(401);
    expect(await accountCount()).toBe(before);
    // So the address is still free for the real person, who comes with an invite.
    const boss = new TestClient(server.baseUrl);
    const returnTo = inviteUrl.pathname + inviteUrl.search;
    await signInBuiltIn(boss, { name: 'Bo Boss', email: 'boss@example.com', password: 'the real boss password' }, returnTo);
    const signedIn = await me(boss);
    expect(signedIn.status).toBe(200);
    expect((await body<User>(signedIn)).subscriptionTier).toBe('free');
  });

  it('still signs existing accounts in', async () => {
    const again = new TestClient(server.baseUrl);
    await signInBuiltIn(again, { name: '', email: 'olga@example.com' });
    expect((await body<User>(await me(again))).id).toBe(owner.id);
  });
});

describe.each(testDatabases())('SIGNUP=invite on a server with no owner yet, on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open(), { SIGNUP: 'invite' });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('lets the owner-to-be in, but not a stranger make a batch of accounts from one address', async () => {
    const made: number[] = [];
    for (let i = 0; i < UNOWNED_SIGNUPS_PER_ADDRESS + 3; i++) {
      const client = new TestClient(server.baseUrl);
      const response = await signInBuiltIn(client, { name: `Bulk ${i}`, email: `bulk${i}@example.com` });
      made.push(response.status === 403 ? 0 : (await client.request('/api/auth/user')).status === 200 ? 1 : -1);
    }
    expect(made).toEqual([...Array<number>(UNOWNED_SIGNUPS_PER_ADDRESS).fill(1), 0, 0, 0]);
    expect((await server.database.db.select().from(localAccounts)).length).toBe(UNOWNED_SIGNUPS_PER_ADDRESS);
    // Existing accounts still sign in, and one of them can claim the server.
    const owner = new TestClient(server.baseUrl);
    await signInBuiltIn(owner, { name: '', email: 'bulk0@example.com' });
    await claimServer(server, owner);
    expect((await body<User>(await owner.request('/api/auth/user'))).subscriptionTier).toBe('superadmin');
  });
});
