import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelMember } from '../../../protocol/channels.js';
import type { ChannelInvite, InvitePreview, InviteResponse } from '../../../protocol/invites.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  type Person,
  signInOwner,
} from '../testing/people.js';
import type { ChannelChanged } from '../../../protocol/sockets.js';
import { invites, users } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { channelTopic } from '../realtime/bus.js';
import { BusWatcher } from '../testing/bus-watcher.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { hashInviteToken } from './invite-token.js';

describe.each(testDatabases())('invites on $name', (database) => {
  let server: TestServer;
  let superadmin: Person, admin: Person, free: Person, newcomer: Person;
  let channelId: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ann Admin', 'ann@example.com');
    free = await signIn(server, 'Fred Free', 'fred@example.com');
    newcomer = await signIn(server, 'Dee New', 'dee@example.com');
    await setTier(superadmin, admin, 'admin');
    channelId = await createChannel(admin, 'Family');
    await addToChannel(admin, channelId, free);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const generate = async (person: Person, id: unknown = channelId) => {
    const response = await person.client.request('/api/invite/generate', {
      method: 'POST',
      json: { channelId: id },
    });
    return {
      status: response.status,
      url: response.ok ? new URL((await body<InviteResponse>(response)).inviteUrl) : null,
    };
  };
  const accept = (person: Person, token: unknown) =>
    person.client.request('/api/invite/accept', { method: 'POST', json: { token } });
  const memberIds = async () =>
    (
      await body<ChannelMember[]>(await admin.client.request(`/api/channels/${channelId}/members`))
    ).map((m) => m.id);

  it('gives any member a link on the public origin with the channel and a random token', async () => {
    const { status, url } = await generate(free);
    expect(status).toBe(200);
    expect(url!.origin).toBe(server.config.publicUrl.origin);
    expect(url!.pathname).toBe('/');
    expect(url!.searchParams.get('channel')).toBe(String(channelId));
    expect(url!.searchParams.get('invite')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await generate(free)).url!.searchParams.get('invite')).not.toBe(
      url!.searchParams.get('invite'),
    );
  });

  it('mints only for our own pages: a navigation from another site mints nothing and retires no link', async () => {
    const liveLinks = async () =>
      (await server.database.db.select().from(invites).where(eq(invites.createdBy, free.id))).map((i) => i.id);
    const path = `/api/invite/generate?channelId=${channelId}`;
    /** A request as a browser sends it, with the session cookie and no Origin (a GET carries none). */
    const asBrowser = (method: string, url: string, headers: Record<string, string>) =>
      fetch(new URL(url, server.baseUrl), { method, headers: { cookie: free.client.cookieHeader(), ...headers } });
    for (let i = 0; i < 10; i++) await generate(free); // a full set of live links
    const before = await liveLinks();
    for (const [method, headers] of [
      ['GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'document' }],
      ['GET', { 'sec-fetch-site': 'same-site' }],
      ['GET', {}], // a browser without Fetch Metadata
      ['GET', { origin: 'https://evil.example' }],
      ['HEAD', { 'sec-fetch-site': 'cross-site' }],
      ['POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }],
    ] as const) {
      const response = await asBrowser(method, method === 'POST' ? '/api/invite/generate' : path, headers);
      expect(response.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
    }
    expect(await liveLinks()).toEqual(before);
    // The spec's GET still answers a fetch from our own pages, by Fetch Metadata or by Origin.
    const own = await asBrowser('GET', path, { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' });
    expect(own.status).toBe(200);
    expect((await body<InviteResponse>(own)).inviteUrl).toContain(`channel=${channelId}`);
    expect((await free.client.request(path)).status).toBe(200);
  });

  it('stores only the SHA-256 of the token, valid for 7 days', async () => {
    const token = (await generate(admin)).url!.searchParams.get('invite')!;
    const rows = await server.database.db
      .select()
      .from(invites)
      .where(eq(invites.tokenHash, hashInviteToken(token)));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    // Valid for 7 days from its minting, by the server's own clock (not the test's).
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(7 * 24 * 3600_000);
  });

  it('refuses links for non-members (403), missing channels (404) and bad ids (400)', async () => {
    expect((await generate(newcomer)).status).toBe(403);
    expect((await generate(admin, 999999)).status).toBe(404);
    expect((await generate(admin, 'abc')).status).toBe(400);
    expect((await admin.client.request('/api/invite/generate', { method: 'POST', json: {} })).status).toBe(400);
    expect((await admin.client.request('/api/invite/generate')).status).toBe(400);
    expect((await generate(superadmin)).status).toBe(200);
  });

  it('makes whoever accepts a member, idempotently, and announces the newcomer', async () => {
    const token = (await generate(admin)).url!.searchParams.get('invite')!;
    const bus = await new BusWatcher(server.app.ctx.bus).watch(channelTopic(channelId));
    const added = () =>
      bus.on<ChannelChanged>(channelTopic(channelId)).filter((m) => m.change === 'member_added');
    const response = await accept(newcomer, token);
    expect(response.status).toBe(200);
    expect(await body<object>(response)).toEqual({ channelId });
    expect(await memberIds()).toContain(newcomer.id);
    await bus.next<ChannelChanged>((m) => m.change === 'member_added' && m.userId === newcomer.id);
    // Accepting again, or as someone already in, is a no-op that announces nothing.
    expect((await accept(newcomer, token)).status).toBe(200);
    expect((await accept(free, token)).status).toBe(200);
    await bus.settle(channelTopic(channelId));
    expect(added()).toHaveLength(1);
    await bus.close();
  });

  it('answers 404 for unknown or expired tokens and 400 for a missing one, adding nobody', async () => {
    const before = await memberIds();
    const outsider = await signIn(server, 'Eli Out', 'eli@example.com');
    expect((await accept(outsider, 'x'.repeat(43))).status).toBe(404);
    const token = (await generate(admin)).url!.searchParams.get('invite')!;
    await server.database.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.tokenHash, hashInviteToken(token)));
    expect((await accept(outsider, token)).status).toBe(404);
    expect((await accept(outsider, '')).status).toBe(400);
    expect((await accept(outsider, 123)).status).toBe(400);
    expect(await memberIds()).toEqual(before);
  });

  it('stops working when the channel is deleted', async () => {
    const token = (await generate(admin)).url!.searchParams.get('invite')!;
    await admin.client.request(`/api/channels/${channelId}`, { method: 'DELETE' });
    expect((await accept(newcomer, token)).status).toBe(404);
  });

});

describe.each(testDatabases())('the page an invite link opens, on $name', (database) => {
  let server: TestServer;
  let admin: Person, member: Person;
  let channelId: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    const owner = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ann Admin', 'ann@example.com');
    member = await signIn(server, 'Mo Member', 'mo@example.com');
    await setTier(owner, admin, 'admin');
    channelId = await createChannel(admin, 'Family Room');
    await addToChannel(admin, channelId, member);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const mint = async (person: Person, id = channelId) => {
    const response = await person.client.request('/api/invite/generate', { method: 'POST', json: { channelId: id } });
    return new URL((await body<InviteResponse>(response)).inviteUrl).searchParams.get('invite')!;
  };
  /** As the landing asks it: signed out, from our own page. */
  const preview = (token: unknown) =>
    new TestClient(server.baseUrl).request('/api/invite/preview', { method: 'POST', json: { token } });
  const members = async () =>
    (await body<ChannelMember[]>(await admin.client.request(`/api/channels/${channelId}/members`))).length;

  it('tells the holder of a link, before sign-in, which channel and who invited them', async () => {
    const before = await members();
    const response = await preview(await mint(member));
    expect(response.status).toBe(200);
    expect(await body<InvitePreview>(response)).toEqual({ channelName: 'Family Room', inviterName: 'Mo Member' });
    // Looking is not joining.
    expect(await members()).toBe(before);
  });

  it('never shows the inviter’s e-mail: a nameless inviter is "Someone"', async () => {
    const token = await mint(member);
    await server.database.db.update(users).set({ firstName: null, lastName: null }).where(eq(users.id, member.id));
    const response = await preview(token);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ channelName: 'Family Room', inviterName: 'Someone' });
    expect(text).not.toContain('mo@example.com');
  });

  it('says nothing without a live token: unknown, expired, a deleted channel, or none', async () => {
    const unknown = await preview('x'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'This invite link is invalid or has expired' });

    const expired = await mint(admin);
    await server.database.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.tokenHash, hashInviteToken(expired)));
    expect((await preview(expired)).status).toBe(404);

    const doomed = await createChannel(admin, 'Short Lived');
    const orphan = await mint(admin, doomed);
    await admin.client.request(`/api/channels/${doomed}`, { method: 'DELETE' });
    expect((await preview(orphan)).status).toBe(404);

    expect((await preview('')).status).toBe(400);
    expect((await preview(undefined)).status).toBe(400);
  });
});

describe.each(testDatabases())('invites after removal, revoking and caps on $name', (database) => {
  let server: TestServer;
  let owner: Person, admin: Person, member: Person, other: Person, newcomer: Person;
  let channelId: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ann Admin', 'ann@example.com');
    member = await signIn(server, 'Mo Member', 'mo@example.com');
    other = await signIn(server, 'Ola Other', 'ola@example.com');
    newcomer = await signIn(server, 'Dee New', 'dee@example.com');
    await setTier(owner, admin, 'admin');
    channelId = await createChannel(admin, 'Family');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const mint = async (person: Person) => {
    const response = await person.client.request('/api/invite/generate', { method: 'POST', json: { channelId } });
    expect(response.status).toBe(200);
    return new URL((await body<InviteResponse>(response)).inviteUrl).searchParams.get('invite')!;
  };
  const accept = (person: Person, token: string) =>
    person.client.request('/api/invite/accept', { method: 'POST', json: { token } });
  const remove = (by: Person, person: Person) =>
    by.client.request(`/api/channels/${channelId}/members/${person.id}`, { method: 'DELETE' });
  const list = (person: Person) => person.client.request(`/api/channels/${channelId}/invites`);
  const isMember = async (person: Person) =>
    (await body<ChannelMember[]>(await admin.client.request(`/api/channels/${channelId}/members`))).some(
      (m) => m.id === person.id,
    );

  it('never lets a removed member back in through a link made before the removal', async () => {
    await addToChannel(admin, channelId, member);
    const own = await mint(member);
    const adminsOld = await mint(admin);
    expect((await remove(admin, member)).status).toBe(200);
    // Their own link died with their membership; the admin's older link does not undo the removal.
    expect((await accept(member, own)).status).toBe(404);
    const refused = await accept(member, adminsOld);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: 'You were removed from this channel. Ask its admin to add you again.' });
    expect(await isMember(member)).toBe(false);
    // The older link still works for someone else, and a link made after the removal readmits them.
    expect((await accept(newcomer, adminsOld)).status).toBe(200);
    expect((await accept(member, await mint(admin))).status).toBe(200);
    expect(await isMember(member)).toBe(true);
  });

  it('ends a removal when a link made after it is redeemed, and not before', async () => {
    const mia = await signIn(server, 'Mia Tier', 'mia@example.com');
    await setTier(owner, mia, 'member');
    await addToChannel(admin, channelId, mia);
    const older = await mint(admin);
    expect((await remove(admin, mia)).status).toBe(200);
    const joinBySelf = () =>
      mia.client.request(`/api/channels/${channelId}/members`, { method: 'POST', json: { userId: mia.id } });
    expect((await accept(mia, older)).status).toBe(403);
    expect((await joinBySelf()).status).toBe(403);
    expect(await isMember(mia)).toBe(false);
    expect((await accept(mia, await mint(admin))).status).toBe(200);
    // Readmitted, they are a member like any other: leaving and joining again is theirs to do.
    expect((await remove(mia, mia)).status).toBe(200);
    expect((await joinBySelf()).status).toBe(201);
  });

  it('retires the links of a member who leaves', async () => {
    await addToChannel(admin, channelId, other);
    const token = await mint(other);
    expect((await remove(other, other)).status).toBe(200);
    const late = await signIn(server, 'Lou Late', 'lou@example.com');
    expect((await accept(late, token)).status).toBe(404);
    // Leaving is not a removal: an older link of someone else lets them come back.
    const adminsLink = await mint(admin);
    expect((await accept(other, adminsLink)).status).toBe(200);
  });

  it('keeps at most ten live links per member per channel, retiring the oldest', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 11; i++) tokens.push(await mint(member));
    const mine = (await body<ChannelInvite[]>(await list(admin))).filter((i) => i.createdBy.id === member.id);
    expect(mine).toHaveLength(10);
    expect(mine[0]!.createdBy.name).toBe('Mo Member');
    const fresh = await signIn(server, 'Fin Fresh', 'fin@example.com');
    expect((await accept(fresh, tokens[0]!)).status).toBe(404);
    expect((await accept(fresh, tokens[10]!)).status).toBe(200);
  });

  it('limits how many links one person mints per hour', async () => {
    const statuses: number[] = [];
    // The member minted 12 in the tests above; the hourly allowance is 30.
    for (let i = 0; i < 20; i++) {
      statuses.push(
        (await member.client.request('/api/invite/generate', { method: 'POST', json: { channelId } })).status,
      );
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.indexOf(429)).toBe(30 - 12);
  });

  it('lets the channel admin list and revoke live links, and nobody else', async () => {
    const token = await mint(admin);
    const invites = await body<ChannelInvite[]>(await list(admin));
    expect(invites.length).toBeGreaterThan(0);
    expect(JSON.stringify(invites)).not.toContain(token);
    expect((await list(member)).status).toBe(403);
    const newest = invites.at(-1)!;
    expect(newest.createdBy.id).toBe(admin.id);
    const revokeAs = (person: Person) =>
      person.client.request(`/api/channels/${channelId}/invites/${newest.id}`, { method: 'DELETE' });
    expect((await revokeAs(member)).status).toBe(403);
    expect((await revokeAs(admin)).status).toBe(200);
    expect((await revokeAs(admin)).status).toBe(404);
    const outsider = await signIn(server, 'Oz Out', 'oz@example.com');
    expect((await accept(outsider, token)).status).toBe(404);
  });
});
