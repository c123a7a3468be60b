import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelMember } from '../../../protocol/channels.js';
import type { FloorState } from '../../../protocol/floor.js';
import type { ChannelChanged } from '../../../protocol/sockets.js';
import { VOICE_CLOSE_CODES } from '../../../protocol/voice-signalling.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { userTopic } from '../realtime/bus.js';
import { BusWatcher } from '../testing/bus-watcher.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { storedAudioOf } from '../testing/test-audio-stores.js';
import { TransmissionRecording } from '../transmissions/transmission-recording.js';
import { joinVoice } from '../testing/voice-join.js';

/** One second of 20 ms frames, finished as the SFU's recorder finishes a transmission. */
function oneSecondSaid(speakerId: string) {
  let now = Date.now();
  const recording = new TransmissionRecording(speakerId, { now: () => now });
  for (let i = 0; i < 50; i++, now += 20)
    recording.push(1, i * 960, Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(90, 0x11)]));
  return recording.finish()!;
}

describe.each(testDatabases())('channels on $name', (database) => {
  let server: TestServer;
  let superadmin: Person, admin: Person, member: Person, free: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ann Admin', 'ann@example.com');
    member = await signIn(server, 'Max Member', 'max@example.com');
    free = await signIn(server, 'Fred Free', 'fred@example.com');
    await setTier(superadmin, admin, 'admin');
    await setTier(superadmin, member, 'member');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const allChannels = async () => body<Channel[]>(await superadmin.client.request('/api/channels'));
  const create = (who: Person | TestClient, json: unknown) =>
    ('client' in who ? who.client : who).request('/api/channels', { method: 'POST', json });

  it('creates a channel with a trimmed name, the creator as its admin member', async () => {
    const response = await create(admin, { name: '  Family  ' });
    expect(response.status).toBe(201);
    const channel = await body<Channel>(response);
    expect(channel).toEqual({
      id: channel.id,
      name: 'Family',
      createdBy: admin.id,
      memberCount: 1,
      // A new channel is an open channel with the default maximum transmission.
      talkMode: 'open',
      maxTransmissionSeconds: 60,
      keepTransmissions: true,
      sos: false,
      sosSeconds: 10,
    });
    expect(channel.id).toBeTypeOf('number');
    const members = await body<ChannelMember[]>(
      await admin.client.request(`/api/channels/${channel.id}/members`),
    );
    expect(members).toMatchObject([
      { id: admin.id, userId: admin.id, role: 'admin', name: 'Ann Admin' },
    ]);
  });

  it('refuses bad names with an error field and writes nothing', async () => {
    const before = await allChannels();
    for (const json of [
      { name: '   ' },
      { name: '' },
      {},
      { name: 42 },
      { name: 'x'.repeat(65) },
      { name: '\u200b\u200b' },
      { name: '\u202e \u2066\u2069\u200f' },
      { name: '\u3164' },
    ]) {
      const response = await create(admin, json);
      expect(response.status).toBe(400);
      const failure = await body<{ error: string; message: string }>(response);
      expect(failure.error).toEqual(expect.any(String));
      expect(failure.message).toEqual(failure.error);
    }
    const empty = await body<{ error: string }>(await create(admin, { name: ' ' }));
    expect(empty.error).toBe('Channel name cannot be empty');
    const invisible = await body<{ error: string }>(await create(admin, { name: '\u200d\u202e\ufeff' }));
    expect(invisible.error).toBe('Channel name cannot be empty');
    const broken = await admin.client.request('/api/channels', {
      method: 'POST',
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(await body<object>(broken)).toHaveProperty('error');
    expect(await allChannels()).toEqual(before);
  });

  it('accepts a name of exactly 64 characters', async () => {
    expect((await create(admin, { name: 'y'.repeat(64) })).status).toBe(201);
  });

  it('lets only admin and superadmin tiers create, with an error field on refusal', async () => {
    const before = await allChannels();
    for (const who of [member, free]) {
      const response = await create(who, { name: 'Nope' });
      expect(response.status).toBe(403);
      expect(Object.keys(await body<object>(response)).sort()).toEqual(['error', 'message']);
    }
    const guest = await create(new TestClient(server.baseUrl), { name: 'Nope' });
    expect(guest.status).toBe(401);
    expect(await body<object>(guest)).toEqual({ error: 'Unauthorized', message: 'Unauthorized' });
    expect(await allChannels()).toEqual(before);
    expect((await create(superadmin, { name: 'Owners' })).status).toBe(201);
  });

  it('lists every channel to member tier and above, and only their own to free users', async () => {
    const id = await createChannel(admin, 'Visible');
    const everything = await allChannels();
    expect(everything.map((c) => c.id)).toContain(id);
    expect(await body<Channel[]>(await member.client.request('/api/channels'))).toEqual(everything);
    expect(await body<Channel[]>(await free.client.request('/api/channels'))).toEqual([]);
    await admin.client.request(`/api/channels/${id}/members`, {
      method: 'POST',
      json: { userId: free.id },
    });
    const freeView = await body<Channel[]>(await free.client.request('/api/channels'));
    expect(freeView).toEqual([
      {
        id,
        name: 'Visible',
        createdBy: admin.id,
        memberCount: 2,
        talkMode: 'open',
        maxTransmissionSeconds: 60,
        keepTransmissions: true,
        sos: false,
        sosSeconds: 10,
      },
    ]);
  });

  it("lists a user's own channels, and anyone's to a superadmin only", async () => {
    const id = await createChannel(admin, 'Mine');
    const own = await body<Channel[]>(
      await admin.client.request(`/api/users/${admin.id}/channels`),
    );
    expect(own.map((c) => c.id)).toContain(id);
    expect(own.every((c) => typeof c.memberCount === 'number')).toBe(true);
    const seen = await body<Channel[]>(
      await superadmin.client.request(`/api/users/${admin.id}/channels`),
    );
    expect(seen).toEqual(own);
    const refused = await member.client.request(`/api/users/${admin.id}/channels`);
    expect(refused.status).toBe(403);
    expect(Object.keys(await body<object>(refused))).toEqual(['message']);
    expect((await superadmin.client.request('/api/users/nobody/channels')).status).toBe(404);
    expect(
      await body<Channel[]>(await member.client.request(`/api/users/${member.id}/channels`)),
    ).toEqual([]);
  });

  it('deletes a channel for its admin or a superadmin, and tells its members', async () => {
    const id = await createChannel(admin, 'Short-lived');
    await admin.client.request(`/api/channels/${id}/members`, {
      method: 'POST',
      json: { userId: member.id },
    });
    expect((await member.client.request(`/api/channels/${id}`, { method: 'DELETE' })).status).toBe(
      403,
    );
    expect((await free.client.request(`/api/channels/${id}`, { method: 'DELETE' })).status).toBe(
      403,
    );
    // Every former member hears of it on all their devices; nobody else does.
    const people = [superadmin, admin, member, free];
    const bus = await new BusWatcher(server.app.ctx.bus).watch(...people.map((p) => userTopic(p.id)));
    const response = await admin.client.request(`/api/channels/${id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await body<object>(response)).toEqual({ message: 'Channel deleted' });
    for (const former of [admin, member]) {
      await bus.next<ChannelChanged>(
        (m, topic) => topic === userTopic(former.id) && m.change === 'channel_deleted' && m.channelId === id,
      );
    }
    for (const person of people) await bus.settle(userTopic(person.id));
    expect(bus.received.map((d) => d.topic).sort()).toEqual([userTopic(admin.id), userTopic(member.id)].sort());
    await bus.close();
    expect((await admin.client.request(`/api/channels/${id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await admin.client.request(`/api/channels/${id}/members`)).status).toBe(404);

    const other = await createChannel(admin, 'Removed by the owner');
    expect(
      (await superadmin.client.request(`/api/channels/${other}`, { method: 'DELETE' })).status,
    ).toBe(200);
  });

  it('deleting a walkie-talkie channel ends its voice, frees its floor and takes its kept transmissions', async () => {
    const id = await createChannel(admin, 'Radio to go');
    await addToChannel(admin, id, member);
    const walkie = await admin.client.request(`/api/channels/${id}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie' },
    });
    expect(walkie.status).toBe(200);
    // Max is in the channel's voice and holds its floor; one transmission was kept.
    const voice = await joinVoice(member, id);
    const socket = await TestSocket.open(member.client);
    try {
      expect(voice.joined).toBeDefined();
      socket.send({ type: 'join_channel', channelId: id, userId: member.id });
      const holds = (m: FloorState) =>
        m.type === 'floor_state' && m.channelId === id && m.holder?.id === member.id;
      // The floor is granted once the voice server has counted Max in.
      await expect
        .poll(async () => {
          socket.send({ type: 'floor_request', channelId: id });
          return socket.next<FloorState>(holds, 500).then(
            () => true,
            () => false,
          );
        }, { timeout: 10_000 })
        .toBe(true);
      expect(await server.app.ctx.transmissions.keep(id, oneSecondSaid(member.id), [])).toBe(true);
      expect(await storedAudioOf(server, id)).toHaveLength(1);

      const response = await admin.client.request(`/api/channels/${id}`, { method: 'DELETE' });
      expect(response.status).toBe(200);
      // Read as soon as the deletion answers: the floor must not wait for Max's voice to end.
      expect(await server.app.ctx.floor.currentHolderId(id)).toBeNull();
      expect(await storedAudioOf(server, id)).toEqual([]);
      await voice.waitFor(() => voice.closeCode !== undefined, 5000, 'voice closed');
      expect(voice.closeCode).toBe(VOICE_CLOSE_CODES.roomClosed);
    } finally {
      await voice.close();
      await socket.close();
    }
  });

  it('answers 400 for a malformed channel id and 404 for a missing one', async () => {
    expect((await admin.client.request('/api/channels/abc', { method: 'DELETE' })).status).toBe(
      400,
    );
    expect((await admin.client.request('/api/channels/0/members')).status).toBe(400);
    expect((await admin.client.request('/api/channels/99999999999/members')).status).toBe(400);
    expect((await admin.client.request('/api/channels/999999/members')).status).toBe(404);
  });
});
