import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../../protocol/channels.js';
import { CONVERSATION_REFUSALS, type Conversation } from '../../../protocol/conversations.js';
import { channelMembers, channels, transmissions } from '../db/schema.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  startConversation,
  type Person,
} from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { TestSocket } from '../testing/test-socket.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/**
 * Direct walkie-talkie conversations through the real server: one per pair however it is started,
 * refused for oneself, an unknown person and across a block; never in a channel list; and every
 * channel door treats one as its two members' only — group-only acts are refused to them, and
 * anyone else (a superadmin too) is told it does not exist.
 */
describe.each(testDatabases())('direct conversations on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let ava: Person;
  let ben: Person;
  let cal: Person;
  let dee: Person;
  let conversationId: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await signInOwner(server, 'Olive Owner', 'olive@example.com');
    ava = await signIn(server, 'Ava Direct', 'ava@example.com');
    ben = await signIn(server, 'Ben Direct', 'ben@example.com');
    cal = await signIn(server, 'Cal Hostile', 'cal@example.com');
    dee = await signIn(server, 'Dee Blocker', 'dee@example.com');
    await setTier(owner, cal, 'admin');
    conversationId = await startConversation(ava, ben);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const post = (who: Person, json: unknown) =>
    who.client.request('/api/conversations', { method: 'POST', json });
  const conversationsOf = async (who: Person) => {
    const response = await who.client.request('/api/conversations');
    expect(response.status).toBe(200);
    return body<Conversation[]>(response);
  };

  it('is a walkie-talkie channel of the two, both plain members, found again from either side', async () => {
    const [row] = await server.database.db
      .select()
      .from(channels)
      .where(eq(channels.id, conversationId));
    expect(row).toMatchObject({ kind: 'direct', talkMode: 'walkie', keepTransmissions: true });
    const members = await server.database.db
      .select({ userId: channelMembers.userId, role: channelMembers.role })
      .from(channelMembers)
      .where(eq(channelMembers.channelId, conversationId));
    expect(members.map((m) => m.role)).toEqual(['member', 'member']);
    expect(members.map((m) => m.userId).sort()).toEqual([ava.id, ben.id].sort());

    expect(await startConversation(ben, ava)).toBe(conversationId);
    expect(await startConversation(ava, ben)).toBe(conversationId);
  });

  it('gives one conversation when both start it at the same moment, many times over', async () => {
    const starts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? startConversation(cal, dee) : startConversation(dee, cal))),
    );
    expect(new Set(starts).size).toBe(1);
    const rows = await server.database.db
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.directKey, [cal.id, dee.id].sort().join(' ')));
    expect(rows).toHaveLength(1);
  });

  it('is refused with oneself, with nobody, and across a block either way', async () => {
    const self = await post(ava, { userId: ava.id });
    expect(self.status).toBe(400);
    expect((await body<{ message: string }>(self)).message).toBe(CONVERSATION_REFUSALS.self);
    const nobody = await post(ava, { userId: 'no-such-user' });
    expect(nobody.status).toBe(404);

    const block = await dee.client.request(`/api/users/${ava.id}/block`, { method: 'POST' });
    expect(block.status).toBe(200);
    try {
      const blocker = await post(dee, { userId: ava.id });
      expect(blocker.status).toBe(403);
      expect((await body<{ message: string }>(blocker)).message).toBe(
        CONVERSATION_REFUSALS.youBlocked,
      );
      const blocked = await post(ava, { userId: dee.id });
      expect(blocked.status).toBe(403);
      expect((await body<{ message: string }>(blocked)).message).toBe(
        CONVERSATION_REFUSALS.unavailable,
      );
      const made = await server.database.db
        .select({ id: channels.id })
        .from(channels)
        .where(eq(channels.directKey, [ava.id, dee.id].sort().join(' ')));
      expect(made).toHaveLength(0);
    } finally {
      await dee.client.request(`/api/users/${ava.id}/block`, { method: 'DELETE' });
    }
  });

  it('lists my conversations with the other person and what I missed from them', async () => {
    await server.database.db.insert(transmissions).values({
      id: crypto.randomUUID(),
      channelId: conversationId,
      speakerId: ava.id,
      startedAt: new Date(),
      durationMs: 1200,
      bytes: 10,
      heardBy: [],
    });
    const [forBen] = await conversationsOf(ben);
    expect(forBen).toMatchObject({
      channel: { id: conversationId, talkMode: 'walkie', memberCount: 2 },
      user: { id: ava.id, firstName: 'Ava' },
      missed: 1,
    });
    // Her own words are not missed by her.
    const forAva = await conversationsOf(ava);
    expect(forAva.map((c) => [c.user.id, c.missed])).toEqual([[ben.id, 0]]);
    expect(await conversationsOf(owner)).toEqual([]);
  });

  it('never shows in a channel list, for its members nor for a superadmin', async () => {
    const group = await createChannel(owner, 'Family');
    await addToChannel(owner, group, ava);
    for (const who of [ava, ben, owner]) {
      const all = await body<Channel[]>(await who.client.request('/api/channels'));
      expect(all.map((c) => c.id)).not.toContain(conversationId);
    }
    const avas = await body<Channel[]>(await ava.client.request(`/api/users/${ava.id}/channels`));
    expect(avas.map((c) => c.id)).toEqual([group]);
    const byOwner = await body<Channel[]>(
      await owner.client.request(`/api/users/${ben.id}/channels`),
    );
    expect(byOwner).toEqual([]);
  });

  /** Group-only acts: refused to its own members (403) and unknown to everyone else (404). */
  const groupOnly = (id: number, memberId: string) =>
    [
      ['DELETE', `/api/channels/${id}`],
      ['PUT', `/api/channels/${id}/talk-mode`, { talkMode: 'open' }],
      ['POST', `/api/channels/${id}/members`, { userId: memberId }],
      ['DELETE', `/api/channels/${id}/members/${memberId}`],
      ['POST', `/api/channels/${id}/members/${memberId}/mute`],
      ['DELETE', `/api/channels/${id}/members/${memberId}/mute`],
      ['POST', '/api/invite/generate', { channelId: id }],
      ['GET', `/api/channels/${id}/invites`],
    ] as const;

  it.each([
    ['its member, naming the other', () => ava, () => ben.id],
    ['its member, naming herself', () => ava, () => ava.id],
  ])('refuses group-only acts to %s', async (_name, who, target) => {
    for (const [method, path, json] of groupOnly(conversationId, target())) {
      const response = await who().client.request(path, { method, ...(json ? { json } : {}) });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect((await body<{ message: string }>(response)).message).toBe(
        CONVERSATION_REFUSALS.groupOnly,
      );
    }
    const still = await server.database.db
      .select({ userId: channelMembers.userId, muted: channelMembers.isMuted })
      .from(channelMembers)
      .where(eq(channelMembers.channelId, conversationId));
    expect(still.map((m) => m.muted)).toEqual([false, false]);
    const [row] = await server.database.db
      .select({ talkMode: channels.talkMode })
      .from(channels)
      .where(eq(channels.id, conversationId));
    expect(row?.talkMode).toBe('walkie');
  });

  it.each([
    ['an admin who is not in it', () => cal],
    ['the superadmin', () => owner],
  ])('is unknown at every door to %s', async (_name, who) => {
    const id = conversationId;
    const doors = [
      ...groupOnly(id, ben.id),
      ['POST', `/api/channels/${id}/members`, { userId: who().id }],
      ['GET', `/api/channels/${id}/members`],
      ['GET', `/api/muted-users/${id}`],
      ['POST', `/api/channels/${id}/members/${ben.id}/poke`],
      ['GET', `/api/channels/${id}/transmissions`],
      ['POST', `/api/channels/${id}/transmissions/read`],
      ['POST', '/api/livekit-token', { channelId: id, userId: who().id, userName: 'X' }],
      ['POST', '/api/usage/session/start', { channelId: id }],
    ] as const;
    for (const [method, path, json] of doors) {
      const response = await who().client.request(path, { method, ...(json ? { json } : {}) });
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    const joined = await server.database.db
      .select()
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, id), eq(channelMembers.userId, who().id)));
    expect(joined).toHaveLength(0);
  });

  it('lets its members see each other, read its transmissions and poke', async () => {
    expect((await ava.client.request(`/api/channels/${conversationId}/members`)).status).toBe(200);
    expect((await ben.client.request(`/api/channels/${conversationId}/transmissions`)).status).toBe(
      200,
    );
    const poke = await ava.client.request(
      `/api/channels/${conversationId}/members/${ben.id}/poke`,
      { method: 'POST' },
    );
    expect(poke.status).toBe(200);
  });

  it('keeps its socket traffic from anyone else: joining, talking and the floor are ignored', async () => {
    const lobby = await createChannel(owner, 'Lobby');
    await addToChannel(owner, lobby, cal);
    const calSocket = await TestSocket.open(cal.client);
    const avaSocket = await TestSocket.open(ava.client);
    type Pushed = { type: string; channelId?: number };
    try {
      calSocket.send({ type: 'join_channel', channelId: conversationId, userId: cal.id });
      calSocket.send({ type: 'start_talking', channelId: conversationId, userId: cal.id });
      calSocket.send({ type: 'floor_request', channelId: conversationId });
      // His own channel answers after those were handled (one socket's messages go in order).
      calSocket.send({ type: 'join_channel', channelId: lobby, userId: cal.id });
      await calSocket.next<Pushed>((m) => m.type === 'member_update' && m.channelId === lobby);
      // A member's join is pushed to whoever joined the conversation's topic: only Ava.
      avaSocket.send({ type: 'join_channel', channelId: conversationId, userId: ava.id });
      await avaSocket.next<Pushed>(
        (m) => m.type === 'member_update' && m.channelId === conversationId,
      );
      expect(
        (calSocket.received as Pushed[]).filter((m) => m.channelId === conversationId),
      ).toEqual([]);
      const members = await body<{ id: string; isActiveInChannel: boolean }[]>(
        await ava.client.request(`/api/channels/${conversationId}/members`),
      );
      expect(members.map((m) => m.id).sort()).toEqual([ava.id, ben.id].sort());
    } finally {
      await calSocket.close();
      await avaSocket.close();
    }
  });

  it('goes with either person’s account, also when the other one started it', async () => {
    const eve = await signIn(server, 'Eve Leaving', 'eve@example.com');
    const id = await startConversation(ava, eve);
    const deleted = await eve.client.request('/api/account', {
      method: 'DELETE',
      json: { password: 'correct horse battery' },
    });
    expect(deleted.status).toBe(200);
    const rows = await server.database.db.select().from(channels).where(eq(channels.id, id));
    expect(rows).toHaveLength(0);
    // Ava's conversation with Ben stays.
    expect((await conversationsOf(ava)).map((c) => c.channel.id)).toEqual([conversationId]);
  });
});
