import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorState } from '../../../protocol/floor.js';
import type { Conversation } from '../../../protocol/conversations.js';
import type { TransmissionsResponse } from '../../../protocol/transmissions.js';
import { FLOOR_PAUSE_MS } from '../floor/floor-store.js';
import { body, signIn, startConversation, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { joinVoiceCounted } from '../testing/voice-join.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';

/**
 * A direct conversation's voice on the built-in SFU, through the real server: the floor, the live
 * audio and the kept transmission work as in any walkie-talkie channel; a block made while both
 * are connected silences the pair at once, both ways, and what is said then is kept from the other.
 */
describe.each(testDatabases().slice(0, 1))('direct conversation voice on $name', (database) => {
  let server: TestServer;
  let ava: Person;
  let ben: Person;
  let channelId: number;
  const voices = new Map<string, WeriftVoiceClient>();
  const sockets = new Map<string, TestSocket>();

  // Metered as any channel: joining waits for the voice server to open their usage row.
  const connect = async (who: Person) => {
    voices.set(who.id, await joinVoiceCounted(server.database.db, who, channelId));
    const socket = await TestSocket.open(who.client);
    socket.send({ type: 'join_channel', channelId, userId: who.id });
    sockets.set(who.id, socket);
  };

  const holderIs = (holderId: string | null) => (m: FloorState) =>
    m.type === 'floor_state' && m.channelId === channelId && (m.holder?.id ?? null) === holderId;

  /** `talker` holds the floor for 50 packets; answers how many of them `listener` received. */
  const transmit = async (talker: Person, listener: Person) => {
    const socket = sockets.get(talker.id)!;
    const voice = voices.get(talker.id)!;
    const heard = () => voices.get(listener.id)!.received.get(voice.joined!.self.identity) ?? 0;
    const before = heard();
    socket.send({ type: 'floor_request', channelId });
    await socket.next<FloorState>(holderIs(talker.id));
    const next = opusPacketFactory(0x2000);
    for (let i = 0; i < 50; i++) {
      voice.sendRtp(next(40));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The last packets in flight reach whoever they are going to.
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.send({ type: 'floor_release', channelId });
    await socket.next<FloorState>(holderIs(null));
    await new Promise((resolve) => setTimeout(resolve, FLOOR_PAUSE_MS + 50));
    return heard() - before;
  };

  const keptFor = async (who: Person) =>
    body<TransmissionsResponse>(await who.client.request(`/api/channels/${channelId}/transmissions`));
  const keptCount = async (count: number) => {
    for (let tries = 0; (await keptFor(ava)).transmissions.length < count; tries++) {
      if (tries > 100) throw new Error(`fewer than ${count} transmissions kept`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ava = await signIn(server, 'Ava Voice', 'ava.voice@example.com');
    ben = await signIn(server, 'Ben Voice', 'ben.voice@example.com');
    channelId = await startConversation(ava, ben);
    for (const who of [ava, ben]) await connect(who);
  });
  afterAll(async () => {
    await Promise.all([...voices.values()].map((voice) => voice.close()));
    await Promise.all([...sockets.values()].map((socket) => socket.close()));
    await server.close();
    await server.database.close();
  });

  it('carries the holder’s voice to the other and keeps it', async () => {
    expect(await transmit(ava, ben)).toBeGreaterThanOrEqual(40);
    await keptCount(1);
    const [forBen] = await body<Conversation[]>(await ben.client.request('/api/conversations'));
    // He heard it live: nothing missed.
    expect(forBen?.missed).toBe(0);
  });

  it('a block made while both are connected silences the pair both ways at once', async () => {
    const block = await ben.client.request(`/api/users/${ava.id}/block`, { method: 'POST' });
    expect(block.status).toBe(200);
    expect(await transmit(ava, ben)).toBe(0);
    expect(await transmit(ben, ava)).toBe(0);
    // Nothing either said across the block is there for the other to replay.
    const forBen = await keptFor(ben);
    expect(forBen.transmissions.every((t) => t.speaker.id !== ava.id)).toBe(true);
    const forAva = await keptFor(ava);
    expect(forAva.transmissions.every((t) => t.speaker.id !== ben.id)).toBe(true);
  });
});
