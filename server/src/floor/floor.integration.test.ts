import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorDenied, FloorState } from '../../../protocol/floor.js';
import { FLOOR_PAUSE_MS } from './floor-store.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import { joinVoiceCounted, voiceUsageOpen } from '../testing/voice-join.js';

interface Person {
  client: TestClient;
  id: string;
  name: string;
}

async function person(server: TestServer, name: string): Promise<Person> {
  const client = new TestClient(server.baseUrl);
  await signInBuiltIn(client, {
    name,
    email: `${name.toLowerCase().replace(/\s/g, '.')}@example.com`,
  });
  const me = (await (await client.request('/api/auth/user')).json()) as { id: string };
  return { client, id: me.id, name };
}

const floorOf =
  (channelId: number, holderId: string | null, ended?: FloorState['ended']) => (m: FloorState) =>
    m.type === 'floor_state' &&
    m.channelId === channelId &&
    (m.holder?.id ?? null) === holderId &&
    (ended === undefined || m.ended === ended);

const denied = (channelId: number, reason: FloorDenied['reason']) => (m: FloorDenied) =>
  m.type === 'floor_denied' && m.channelId === channelId && m.reason === reason;

/**
 * Floor control through the real server: REST sets the talk mode, `/ws` sockets press and
 * release, and every viewer of the channel sees who holds the floor.
 */
describe.each(testDatabases())('walkie-talkie floor control on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let bea: Person;
  let cal: Person;
  let channelId: number;
  const sockets: TestSocket[] = [];
  const voices: WeriftVoiceClient[] = [];

  /** Connects the person to the channel's voice (the built-in SFU), as the app does before a press. */
  const connectVoice = async (who: Person) => {
    const voice = await joinVoiceCounted(server.database.db, who, channelId);
    voices.push(voice);
    return voice;
  };
  /** A new hold by the same person waits for the pause after their last one (decision 023). */
  const afterPause = () => new Promise((resolve) => setTimeout(resolve, FLOOR_PAUSE_MS + 50));

  const joined = async (who: Person) => {
    const socket = await TestSocket.open(who.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: who.id });
    return socket;
  };
  const setTalkMode = (who: Person, body: unknown) =>
    who.client.request(`/api/channels/${channelId}/talk-mode`, { method: 'PUT', json: body });

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await person(server, 'Olive Owner');
    await claimServer(server, owner.client);
    bea = await person(server, 'Bea Member');
    cal = await person(server, 'Cal Member');
    const created = await owner.client.request('/api/channels', {
      method: 'POST',
      json: { name: 'Radio' },
    });
    channelId = ((await created.json()) as { id: number }).id;
    for (const member of [bea, cal]) {
      const added = await owner.client.request(`/api/channels/${channelId}/members`, {
        method: 'POST',
        json: { userId: member.id },
      });
      expect(added.status).toBeLessThan(300);
    }
    for (const who of [owner, bea, cal]) await connectVoice(who);
  });
  afterAll(async () => {
    await Promise.all(voices.map((v) => v.close()));
    await Promise.all(sockets.map((s) => s.close()));
    await server.close();
    await server.database.close();
  });

  it('only a channel admin sets the talk mode, within the documented limits', async () => {
    expect((await setTalkMode(bea, { talkMode: 'walkie' })).status).toBe(403);
    expect((await setTalkMode(owner, { talkMode: 'shout' })).status).toBe(400);
    expect(
      (await setTalkMode(owner, { talkMode: 'walkie', maxTransmissionSeconds: 2 })).status,
    ).toBe(400);
    expect(
      (await setTalkMode(owner, { talkMode: 'walkie', maxTransmissionSeconds: 301 })).status,
    ).toBe(400);
    const saved = await setTalkMode(owner, { talkMode: 'walkie', maxTransmissionSeconds: 30 });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      talkMode: 'walkie',
      maxTransmissionSeconds: 30,
      keepTransmissions: true,
    });
    const channels = (await (await bea.client.request(`/api/users/${bea.id}/channels`)).json()) as {
      id: number;
      talkMode: string;
      maxTransmissionSeconds: number;
    }[];
    expect(channels.find((c) => c.id === channelId)).toMatchObject({
      talkMode: 'walkie',
      maxTransmissionSeconds: 30,
    });
  });

  it('one talker at a time: the second press is refused with who is talking; release frees it', async () => {
    const b = await joined(bea);
    const c = await joined(cal);
    const pressedAt = Date.now();
    b.send({ type: 'floor_request', channelId });
    const granted = await c.next<FloorState>(floorOf(channelId, bea.id));
    const toldAt = Date.now();
    expect(granted.holder).toEqual({ id: bea.id, name: bea.name });
    // The channel's 30 s, counted from the grant: which happened between the press and the news.
    expect(granted.expiresAt!).toBeGreaterThanOrEqual(pressedAt + 30_000);
    expect(granted.expiresAt!).toBeLessThanOrEqual(toldAt + 30_000);
    await b.next<FloorState>(floorOf(channelId, bea.id));

    c.send({ type: 'floor_request', channelId });
    const refusal = await c.next<FloorDenied>(denied(channelId, 'busy'));
    expect(refusal.holder?.id).toBe(bea.id);

    // Cal cannot give back Bea's floor, however he words it.
    c.clear();
    c.send({ type: 'floor_release', channelId });
    c.send({ type: 'floor_release', channelId, userId: bea.id });
    const late = await TestSocket.open(owner.client);
    sockets.push(late);
    late.send({ type: 'join_channel', channelId, userId: owner.id });
    // Someone arriving learns who holds the floor.
    await late.next<FloorState>(floorOf(channelId, bea.id));
    expect(c.received.some((m) => (m as { type?: string }).type === 'floor_state')).toBe(false);

    b.send({ type: 'floor_release', channelId });
    await c.next<FloorState>(floorOf(channelId, null));
    c.send({ type: 'floor_request', channelId });
    await b.next<FloorState>(floorOf(channelId, cal.id));
    c.send({ type: 'floor_release', channelId });
    await b.next<FloorState>(floorOf(channelId, null));
  });

  it("a channel admin's press cuts in", async () => {
    await afterPause();
    const b = await joined(bea);
    const o = await joined(owner);
    b.send({ type: 'floor_request', channelId });
    await o.next<FloorState>(floorOf(channelId, bea.id));
    o.send({ type: 'floor_request', channelId });
    const cut = await b.next<FloorState>(floorOf(channelId, owner.id, 'cut_in'));
    expect(cut.holder?.name).toBe(owner.name);
    // Bea's release comes too late to free the admin's floor.
    b.send({ type: 'floor_release', channelId });
    o.send({ type: 'floor_release', channelId });
    await b.next<FloorState>(floorOf(channelId, null));
  });

  it('the floor is free again when its holder disconnects, or is admin-muted', async () => {
    await afterPause();
    const watcher = await joined(owner);
    const b = await joined(bea);
    b.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, bea.id));
    await b.close();
    await watcher.next<FloorState>(floorOf(channelId, null));

    watcher.clear();
    const c = await joined(cal);
    c.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, cal.id));
    const muted = await owner.client.request(`/api/channels/${channelId}/members/${cal.id}/mute`, {
      method: 'POST',
    });
    expect(muted.status).toBe(200);
    await watcher.next<FloorState>(floorOf(channelId, null));
    c.send({ type: 'floor_request', channelId });
    await c.next<FloorDenied>(denied(channelId, 'muted'));
    await owner.client.request(`/api/channels/${channelId}/members/${cal.id}/mute`, {
      method: 'DELETE',
    });
  });

  it('the maximum transmission time takes the floor back', async () => {
    expect(
      (await setTalkMode(owner, { talkMode: 'walkie', maxTransmissionSeconds: 5 })).status,
    ).toBe(200);
    await afterPause();
    const b = await joined(bea);
    const c = await joined(cal);
    const pressedAt = Date.now();
    b.send({ type: 'floor_request', channelId });
    const granted = await c.next<FloorState>(floorOf(channelId, bea.id));
    const toldAt = Date.now();
    // The channel's 5 s, counted from the grant: which happened between the press and the news.
    expect(granted.expiresAt!).toBeGreaterThanOrEqual(pressedAt + 5_000);
    expect(granted.expiresAt!).toBeLessThanOrEqual(toldAt + 5_000);
    const ended = await c.next<FloorState>(floorOf(channelId, null, 'expired'), 10_000);
    expect(ended.expiresAt).toBeNull();
  });

  it('an open channel has no floor: a press is refused as open, and switching frees a held floor', async () => {
    await afterPause();
    const b = await joined(bea);
    const c = await joined(cal);
    b.send({ type: 'floor_request', channelId });
    await c.next<FloorState>(floorOf(channelId, bea.id));
    expect((await setTalkMode(owner, { talkMode: 'open' })).status).toBe(200);
    await c.next<FloorState>(floorOf(channelId, null));
    c.send({ type: 'floor_request', channelId });
    await c.next<FloorDenied>(denied(channelId, 'open_channel'));
  });

  it('a member who does not hear the channel (OFFLINE there) cannot take its floor', async () => {
    expect((await setTalkMode(owner, { talkMode: 'walkie' })).status).toBe(200);
    const watcher = await joined(owner);
    const socket = await TestSocket.open(bea.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: bea.id, listening: false });
    socket.send({ type: 'floor_request', channelId });
    // Bea goes ONLINE and takes it; going OFFLINE again gives it back.
    socket.send({ type: 'join_channel', channelId, userId: bea.id, listening: true });
    socket.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, bea.id));
    expect(watcher.received.filter((m) => (m as FloorState).type === 'floor_state')).toHaveLength(1);
    socket.send({ type: 'join_channel', channelId, userId: bea.id, listening: false });
    await watcher.next<FloorState>(floorOf(channelId, null));
  });

  it('only someone connected to the channel’s voice may take its floor', async () => {
    const dan = await person(server, 'Dan Member');
    const added = await owner.client.request(`/api/channels/${channelId}/members`, {
      method: 'POST',
      json: { userId: dan.id },
    });
    expect(added.status).toBe(201);
    const watcher = await joined(owner);
    const d = await joined(dan);
    d.send({ type: 'floor_request', channelId });
    await d.next<FloorDenied>(denied(channelId, 'not_in_voice'));
    const voice = await connectVoice(dan);
    d.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, dan.id));
    expect(watcher.received.filter((m) => (m as FloorState).type === 'floor_state')).toHaveLength(1);
    // Leaving the voice room: the next press is refused again.
    d.send({ type: 'floor_release', channelId });
    await watcher.next<FloorState>(floorOf(channelId, null));
    await voice.close();
    for (let tries = 0; await voiceUsageOpen(server.database.db, dan.id, channelId); tries++) {
      if (tries > 100) throw new Error('the voice usage row did not close');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await afterPause();
    d.clear();
    d.send({ type: 'floor_request', channelId });
    await d.next<FloorDenied>(denied(channelId, 'not_in_voice'));
  });

  it('a holder who leaves the voice room gives the floor back at once, not at the maximum', async () => {
    const eve = await person(server, 'Eve Member');
    const added = await owner.client.request(`/api/channels/${channelId}/members`, {
      method: 'POST',
      json: { userId: eve.id },
    });
    expect(added.status).toBe(201);
    const watcher = await joined(owner);
    const e = await joined(eve);
    const voice = await connectVoice(eve);
    e.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, eve.id));
    // Her app socket stays; only her voice connection goes.
    await voice.close();
    const freed = await watcher.next<FloorState>(floorOf(channelId, null));
    expect(freed.ended).toBeUndefined();
  });

  it('pressing again while holding never extends the hold; a new hold waits for a pause', async () => {
    await afterPause();
    const watcher = await joined(owner);
    const b = await joined(bea);
    b.send({ type: 'floor_request', channelId });
    const first = await watcher.next<FloorState>(floorOf(channelId, bea.id));
    await new Promise((resolve) => setTimeout(resolve, 20));
    b.clear();
    watcher.clear();
    b.send({ type: 'floor_request', channelId });
    // Bea is told she still holds it, until the same moment as before; nobody else hears of it.
    const again = await b.next<FloorState>(floorOf(channelId, bea.id));
    expect(again.expiresAt).toBe(first.expiresAt);
    b.send({ type: 'floor_release', channelId });
    await watcher.next<FloorState>(floorOf(channelId, null));
    expect(
      watcher.received.filter((m) => (m as FloorState).type === 'floor_state'),
    ).toHaveLength(1);
    // Straight back in is refused; others may take it meanwhile.
    b.send({ type: 'floor_request', channelId });
    await b.next<FloorDenied>(denied(channelId, 'too_soon'));
    await afterPause();
    b.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(floorOf(channelId, bea.id));
    b.send({ type: 'floor_release', channelId });
    await watcher.next<FloorState>(floorOf(channelId, null));
  });

  it('a non-member gets nothing from pressing', async () => {
    const stranger = await person(server, 'Sid Stranger');
    const socket = await TestSocket.open(stranger.client);
    sockets.push(socket);
    socket.send({ type: 'floor_request', channelId });
    socket.send({ type: 'join_channel', channelId, userId: stranger.id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      socket.received.filter((m) => String((m as { type?: string }).type).startsWith('floor')),
    ).toEqual([]);
  });
});
