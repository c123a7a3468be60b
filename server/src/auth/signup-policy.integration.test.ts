import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteResponse } from '../../../protocol/invites.js';
import type { User } from '../../../protocol/user.js';
import { body, createChannel, signInOwner, type Person } from '../access/testing/people.js';
import { localAccounts } from '../db/schema.js';
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

  it('lets a listed e-mail create its account (without making it superadmin: the address is unverified)', async () => {
    const boss = new TestClient(server.baseUrl);
    await signInBuiltIn(boss, { name: 'Bo Boss', email: 'Boss@Example.com' });
    const response = await me(boss);
    expect(response.status).toBe(200);
    expect((await body<User>(response)).subscriptionTier).toBe('free');
  });

  it('still signs existing accounts in', async () => {
    const again = new TestClient(server.baseUrl);
    await signInBuiltIn(again, { name: '', email: 'olga@example.com' });
    expect((await body<User>(await me(again))).id).toBe(owner.id);
  });
});
