import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelMember, MutedUsersResponse } from '../../../protocol/channels.js';
import {
  channelChangedSchema,
  type ChannelChanged,
  type MemberUpdate,
  type PokeMessage,
} from '../../../protocol/sockets.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  type Person,
  signInOwner,
} from '../testing/people.js';
import { channelTopic, userTopic } from '../realtime/bus.js';
import { BusWatcher } from '../testing/bus-watcher.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';

describe.each(testDatabases())('channel members on $name', (database) => {
  let server: TestServer;
  let superadmin: Person, admin: Person, member: Person, free: Person, other: Person;
  let channelId: number;
  /** What the server announces on the real bus for the test's channel and for each person. */
  let bus: BusWatcher;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ann Admin', 'ann@example.com');
    member = await signIn(server, 'Max Member', 'max@example.com');
    free = await signIn(server, 'Fred', 'fred@example.com');
    other = await signIn(server, 'Olga Other', 'olga@example.com');
    await setTier(superadmin, admin, 'admin');
    await setTier(superadmin, member, 'member');
  });
  beforeEach(async () => {
    channelId = await createChannel(admin, 'Family');
    const people = [superadmin, admin, member, free, other];
    bus = await new BusWatcher(server.app.ctx.bus).watch(
      channelTopic(channelId),
      ...people.map((p) => userTopic(p.id)),
    );
  });
  afterEach(async () => {
    await bus.close();
  });
  const changes = (change: ChannelChanged['change']) =>
    bus.on<ChannelChanged>(channelTopic(channelId)).filter((m) => m.type === 'channel_changed' && m.change === change);
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const path = (rest = '') => `/api/channels/${channelId}/members${rest}`;
  const add = (who: Person, json: unknown) => who.client.request(path(), { method: 'POST', json });
  const members = async (who = admin) => body<ChannelMember[]>(await who.client.request(path()));
  const muted = async (who = admin) =>
    (await body<MutedUsersResponse>(await who.client.request(`/api/muted-users/${channelId}`)))
      .mutedUsers;

  it('lists members as cards: id is the user id, name per spec §3, offline until sockets say otherwise', async () => {
    await addToChannel(admin, channelId, free);
    expect(await members()).toEqual([
      {
        id: admin.id,
        userId: admin.id,
        name: 'Ann Admin',
        role: 'admin',
        isOnline: false,
        isActiveInChannel: false,
        isTalking: false,
        isMutedInChannel: false,
        email: 'ann@example.com',
        profileImageUrl: null,
      },
      expect.objectContaining({ id: free.id, name: 'fred@example.com', role: 'member' }),
    ]);
  });

  it('reads presence from the live sockets', async () => {
    const socket = await TestSocket.open(admin.client);
    socket.send({ type: 'join_channel', channelId });
    socket.send({ type: 'start_talking', channelId });
    await socket.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.isTalking);
    const [card] = await members();
    expect(card).toMatchObject({
      id: admin.id,
      isOnline: true,
      isActiveInChannel: true,
      isTalking: true,
    });
    await socket.close();
  });

  it('adds a user by id or by e-mail, once, and announces it', async () => {
    const added = await add(admin, { userId: free.id });
    expect(added.status).toBe(201);
    expect(await body<ChannelMember>(added)).toMatchObject({
      id: free.id,
      role: 'member',
      isMutedInChannel: false,
    });
    await bus.next<MemberUpdate>(
      (m, topic) => topic === channelTopic(channelId) && m.type === 'member_update' && m.member.id === free.id,
    );
    await bus.next<ChannelChanged>(
      (m, topic) => topic === userTopic(free.id) && m.type === 'channel_changed' && m.change === 'member_added',
    );
    expect(changes('member_added')).toMatchObject([{ channelId, userId: free.id }]);
    const again = await add(admin, { userId: free.id });
    expect(again.status).toBe(409);
    expect((await body<{ message: string }>(again)).message).toContain('already');
    expect((await add(admin, { email: ' OLGA@example.com ' })).status).toBe(201);
    expect((await add(admin, { email: 'nobody@example.com' })).status).toBe(404);
    expect((await add(admin, { userId: 'no-such-user' })).status).toBe(404);
    expect((await add(admin, { email: 'not an email' })).status).toBe(400);
    expect((await add(admin, {})).status).toBe(400);
    expect((await members()).map((m) => m.id)).toEqual([admin.id, free.id, other.id]);
  });

  it('lets a superadmin add members to any channel', async () => {
    expect((await add(superadmin, { userId: other.id })).status).toBe(201);
  });

  it('lets member tier join by itself, but not add others; free users join only when added', async () => {
    expect((await add(member, { userId: other.id })).status).toBe(403);
    expect((await add(member, { userId: member.id })).status).toBe(201);
    expect((await add(free, { userId: free.id })).status).toBe(403);
    expect((await add(free, { email: 'fred@example.com' })).status).toBe(403);
    expect((await members()).map((m) => m.id)).toEqual([admin.id, member.id]);
  });

  it('does not let someone removed join again by themselves, until an admin adds them', async () => {
    const removed = 'You were removed from this channel. Ask its admin to add you again.';
    await addToChannel(admin, channelId, member);
    expect((await admin.client.request(path(`/${member.id}`), { method: 'DELETE' })).status).toBe(200);
    for (const json of [{ userId: member.id }, { email: 'MAX@example.com' }]) {
      const refused = await add(member, json);
      expect(refused.status).toBe(403);
      expect(await body<object>(refused)).toEqual({ message: removed });
    }
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
    // The admin's add undoes the removal: afterwards leaving and joining again is theirs to do.
    expect((await add(admin, { userId: member.id })).status).toBe(201);
    expect((await member.client.request(path(`/${member.id}`), { method: 'DELETE' })).status).toBe(200);
    expect((await add(member, { userId: member.id })).status).toBe(201);
    // A superadmin's removal stands the same way; the superadmin adding them back undoes it.
    expect((await superadmin.client.request(path(`/${member.id}`), { method: 'DELETE' })).status).toBe(200);
    expect((await add(member, { email: 'max@example.com' })).status).toBe(403);
    expect((await add(superadmin, { email: 'max@example.com' })).status).toBe(201);
  });

  it('tells a caller who may not add others nothing about the id or address they name', async () => {
    for (const json of [{ email: 'olga@example.com' }, { email: 'nobody@example.com' }]) {
      const refused = await add(member, json);
      expect(refused.status).toBe(403);
      expect(await body<object>(refused)).toEqual({ message: 'Only the channel admin can add members' });
    }
    expect((await add(free, { email: 'nobody@example.com' })).status).toBe(403);
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
  });

  it('limits how many channels one person joins by themselves per day; admins adding them do not count', async () => {
    const joiner = await signIn(server, 'Jo Joiner', 'jo@example.com');
    await setTier(superadmin, joiner, 'member');
    const leave = async () =>
      expect((await joiner.client.request(path(`/${joiner.id}`), { method: 'DELETE' })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await add(admin, { userId: joiner.id })).status).toBe(201);
      await leave();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await add(joiner, { userId: joiner.id });
      statuses.push(response.status);
      if (response.status === 201) await leave();
    }
    expect(statuses).toEqual([...Array<number>(20).fill(201), 429]);
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
    // An admin still adds them.
    expect((await add(admin, { userId: joiner.id })).status).toBe(201);
  });

  it('refuses to add someone who has blocked the one adding (403), and nothing is written', async () => {
    expect(
      (await other.client.request(`/api/users/${admin.id}/block`, { method: 'POST' })).status,
    ).toBe(200);
    const refused = await add(admin, { userId: other.id });
    expect(refused.status).toBe(403);
    expect((await body<{ message: string }>(refused)).message).not.toContain('already');
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
    // Someone else the blocker did not block may still add them.
    expect((await add(superadmin, { userId: other.id })).status).toBe(201);
    await other.client.request(`/api/users/${admin.id}/block`, { method: 'DELETE' });
  });

  it('lets the admin remove members and any member leave, announcing both', async () => {
    await addToChannel(admin, channelId, free);
    await addToChannel(admin, channelId, other);
    expect((await free.client.request(path(`/${other.id}`), { method: 'DELETE' })).status).toBe(
      403,
    );
    const removed = await admin.client.request(path(`/${other.id}`), { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await body<object>(removed)).toEqual({ message: 'Member removed' });
    expect((await free.client.request(path(`/${free.id}`), { method: 'DELETE' })).status).toBe(200);
    await bus.settle(channelTopic(channelId));
    expect(changes('member_removed')).toEqual([
      { type: 'channel_changed', change: 'member_removed', channelId, userId: other.id },
      { type: 'channel_changed', change: 'member_removed', channelId, userId: free.id },
    ]);
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
    expect((await admin.client.request(path(`/${free.id}`), { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await free.client.request(path(`/${free.id}`), { method: 'DELETE' })).status).toBe(404);
  });

  it('never removes the creator: they delete the channel instead', async () => {
    expect((await admin.client.request(path(`/${admin.id}`), { method: 'DELETE' })).status).toBe(
      403,
    );
    expect(
      (await superadmin.client.request(path(`/${admin.id}`), { method: 'DELETE' })).status,
    ).toBe(403);
    expect((await members()).map((m) => m.id)).toEqual([admin.id]);
  });

  it('mutes and unmutes a member, idempotently, for the admin or a superadmin', async () => {
    await addToChannel(admin, channelId, free);
    const mute = (who: Person, method: 'POST' | 'DELETE', target = free) =>
      who.client.request(path(`/${target.id}/mute`), { method });
    expect((await mute(free, 'POST', admin)).status).toBe(403);
    const response = await mute(admin, 'POST');
    expect(response.status).toBe(200);
    expect(await body<ChannelMember>(response)).toMatchObject({
      id: free.id,
      isMutedInChannel: true,
    });
    expect((await mute(admin, 'POST')).status).toBe(200);
    expect(await muted(free)).toEqual([free.id]);
    expect((await members()).find((m) => m.id === free.id)?.isMutedInChannel).toBe(true);
    const update = await bus.next<MemberUpdate>(
      (m, topic) => topic === channelTopic(channelId) && m.type === 'member_update' && m.member.isMutedInChannel,
    );
    expect(update.message.member).toMatchObject({ id: free.id, isMutedInChannel: true });
    expect(changes('member_muted')[0]).toMatchObject({ channelId, userId: free.id });
    // The muted member's own devices are told who muted them; the channel's viewers are not.
    const told = await bus.next<ChannelChanged>(
      (m, topic) => topic === userTopic(free.id) && m.type === 'channel_changed' && m.change === 'member_muted',
    );
    expect(told.message).toEqual({
      type: 'channel_changed',
      channelId,
      change: 'member_muted',
      userId: free.id,
      muted: true,
      by: { id: admin.id, name: 'Ann Admin' },
    });
    expect(channelChangedSchema.parse(told.message)).toEqual(told.message);
    expect(changes('member_muted')[0]).not.toHaveProperty('by');
    expect((await mute(superadmin, 'DELETE')).status).toBe(200);
    const unmuted = await bus.next<ChannelChanged>(
      (m, topic) =>
        topic === userTopic(free.id) && m.type === 'channel_changed' && m.change === 'member_muted' && m.muted === false,
    );
    expect(unmuted.message.by).toEqual({ id: superadmin.id, name: 'Sue Super' });
    expect(await muted()).toEqual([]);
    expect((await mute(admin, 'POST', other)).status).toBe(404);
  });

  it('keeps members, mutes and invite links of a channel from non-members (403) but not from a superadmin', async () => {
    for (const who of [member, free]) {
      const response = await who.client.request(path());
      expect(response.status).toBe(403);
      expect(Object.keys(await body<object>(response))).toEqual(['message']);
      expect((await who.client.request(`/api/muted-users/${channelId}`)).status).toBe(403);
    }
    expect((await members(superadmin)).map((m) => m.id)).toEqual([admin.id]);
    expect(await muted(superadmin)).toEqual([]);
    expect((await admin.client.request('/api/muted-users/999999')).status).toBe(404);
  });

  it('pokes a member once per 10 seconds, and announces it', async () => {
    await addToChannel(admin, channelId, free);
    await addToChannel(admin, channelId, other);
    const poke = (who: Person, target: Person) =>
      who.client.request(path(`/${target.id}/poke`), { method: 'POST' });
    const first = await poke(free, admin);
    expect(first.status).toBe(200);
    expect(await body<object>(first)).toEqual({ message: 'Poke sent' });
    const poked = await bus.next<PokeMessage>((m) => m.type === 'poke');
    expect(poked).toEqual({
      topic: userTopic(admin.id),
      message: { type: 'poke', channelId, from: { id: free.id, name: 'fred@example.com' } },
    });
    expect((await poke(free, admin)).status).toBe(429);
    expect((await poke(free, other)).status).toBe(200);
    expect((await poke(admin, free)).status).toBe(200);
    expect((await poke(free, free)).status).toBe(400);
    expect((await poke(free, member)).status).toBe(404);
    expect((await poke(member, admin)).status).toBe(403);
    expect((await poke(superadmin, admin)).status).toBe(403);
  });

  it('refuses a poke towards someone who blocked the poker', async () => {
    await addToChannel(admin, channelId, other);
    await other.client.request(`/api/users/${member.id}/block`, { method: 'POST' });
    await add(member, { userId: member.id });
    expect(
      (await member.client.request(path(`/${other.id}/poke`), { method: 'POST' })).status,
    ).toBe(403);
    await other.client.request(`/api/users/${member.id}/block`, { method: 'DELETE' });
  });
});
