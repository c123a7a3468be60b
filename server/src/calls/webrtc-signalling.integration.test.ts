import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';

interface Person {
  client: TestClient;
  id: string;
}

type Message = Record<string, unknown> & { type: string };

let counter = 0;
async function person(server: TestServer, first: string): Promise<Person> {
  counter += 1;
  const client = new TestClient(server.baseUrl);
  await signInBuiltIn(client, {
    name: `${first} Signal${counter}`,
    email: `${first.toLowerCase()}.s${counter}.${Date.now()}@example.com`,
  });
  const me = (await (await client.request('/api/auth/user')).json()) as { id: string };
  return { client, id: me.id };
}

const WEBRTC = { path: '/ws/webrtc' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const offer = { type: 'offer', sdp: 'v=0\r\n' };

describe.each(testDatabases())('/ws/webrtc signalling on $name', (database) => {
  let server: TestServer;
  let ann: Person;
  let bob: Person;
  let eve: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ann = await person(server, 'Ann');
    bob = await person(server, 'Bob');
    eve = await person(server, 'Eve');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  /** Ann calls Bob over /ws; returns the call once Bob (optionally) accepted. */
  async function placeCall(accept: boolean) {
    const annWs = await TestSocket.open(ann.client);
    const bobWs = await TestSocket.open(bob.client);
    const call = {
      type: 'initiate_call',
      callId: randomUUID(),
      receiverId: bob.id,
      roomName: `room-${randomUUID()}`,
    };
    annWs.send(call);
    await bobWs.next((m: Message) => m.type === 'incoming_call' && m.callId === call.callId);
    if (accept) {
      bobWs.send({ type: 'call_accepted', callId: call.callId });
      await annWs.next((m: Message) => m.type === 'call_accepted' && m.callId === call.callId);
    }
    const close = async () => {
      annWs.send({ type: 'call_ended', callId: call.callId });
      // Unanswered, it is a missed call for Bob; answered, it ended.
      const over = accept ? 'call_ended' : 'call_missed';
      await bobWs.next((m: Message) => m.type === over && m.callId === call.callId);
      await annWs.close();
      await bobWs.close();
    };
    return { call, close };
  }

  it('refuses a socket without a session cookie (401) and from a foreign origin (403)', async () => {
    await expect(TestSocket.open(new TestClient(server.baseUrl), WEBRTC)).rejects.toThrow(
      'upgrade refused: 401',
    );
    await expect(
      TestSocket.open(ann.client, { ...WEBRTC, origin: 'https://evil.example' }),
    ).rejects.toThrow('upgrade refused: 403');
  });

  it('relays offer, answer and candidates between the two parties only; a third user cannot join', async () => {
    const { call, close } = await placeCall(true);
    const roomName = call.roomName;
    const annRtc = await TestSocket.open(ann.client, WEBRTC);
    annRtc.send({ type: 'join_room', roomName, userId: ann.id });
    await pause(100);
    const bobRtc = await TestSocket.open(bob.client, WEBRTC);
    bobRtc.send({ type: 'join_room', roomName });
    expect(await annRtc.next<Message>((m) => m.type === 'peer_joined')).toEqual({
      type: 'peer_joined',
      roomName,
      userId: bob.id,
    });
    expect(await bobRtc.next<Message>((m) => m.type === 'peer_joined')).toEqual({
      type: 'peer_joined',
      roomName,
      userId: ann.id,
    });

    const intruder = await TestSocket.open(eve.client, WEBRTC);
    const refused = intruder.closed();
    intruder.send({ type: 'join_room', roomName });
    expect((await refused).code).toBe(4403);

    annRtc.send({ type: 'offer', roomName, offer });
    expect(await bobRtc.next<Message>((m) => m.type === 'offer')).toEqual({
      type: 'offer',
      roomName,
      offer,
      userId: ann.id,
    });
    bobRtc.send({
      type: 'answer',
      roomName,
      answer: { type: 'answer', sdp: 'v=0\r\n' },
      userId: eve.id,
    });
    expect(await annRtc.next<Message>((m) => m.type === 'answer')).toMatchObject({
      userId: bob.id,
    });
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };
    bobRtc.send({ type: 'ice_candidate', roomName, candidate });
    expect(await annRtc.next<Message>((m) => m.type === 'ice_candidate')).toEqual({
      type: 'ice_candidate',
      roomName,
      candidate,
      userId: bob.id,
    });

    // Nothing came back to the senders themselves; malformed messages are dropped.
    annRtc.send({ type: 'offer', roomName, offer: { type: 'offer', sdp: 42 } });
    annRtc.send({ type: 'offer', roomName, offer: { type: 'offer', sdp: 'x'.repeat(17 * 1024) } });
    await pause(200);
    expect(annRtc.received.filter((m) => (m as Message).type === 'offer')).toEqual([]);
    expect(bobRtc.received.filter((m) => (m as Message).type === 'offer')).toHaveLength(1);

    const roomClosed = annRtc.closed();
    await close();
    expect((await roomClosed).code).toBe(1000);
    await bobRtc.close();
  });

  it('lets the caller wait in the room while it rings, but not the receiver before accepting', async () => {
    const { call, close } = await placeCall(false);
    const annRtc = await TestSocket.open(ann.client, WEBRTC);
    annRtc.send({ type: 'join_room', roomName: call.roomName });
    await pause(200);
    expect(annRtc.ws.readyState).toBe(annRtc.ws.OPEN);
    const bobRtc = await TestSocket.open(bob.client, WEBRTC);
    const refused = bobRtc.closed();
    bobRtc.send({ type: 'join_room', roomName: call.roomName });
    expect((await refused).code).toBe(4403);
    await close();
    await annRtc.close();
  });

  it('ignores signalling from a socket that joined no room', async () => {
    const { call, close } = await placeCall(true);
    const bobRtc = await TestSocket.open(bob.client, WEBRTC);
    bobRtc.send({ type: 'join_room', roomName: call.roomName });
    await pause(100);
    const eveRtc = await TestSocket.open(eve.client, WEBRTC);
    eveRtc.send({ type: 'offer', roomName: call.roomName, offer });
    await pause(200);
    expect(bobRtc.received.filter((m) => (m as Message).type === 'offer')).toEqual([]);
    await close();
    await eveRtc.close();
    await bobRtc.close();
  });
});
