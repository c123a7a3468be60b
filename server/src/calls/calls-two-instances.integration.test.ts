import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import type { TestServer } from '../testing/test-server.js';
import { startTwoInstances, type TwoInstances } from '../testing/two-instances.js';
import { TestSocket } from '../testing/test-socket.js';
import { callTimings } from './calls.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

type Message = Record<string, unknown> & { type: string };

/**
 * A call between users on two instances (one PostgreSQL, one Redis): ringing, accepting, the miss
 * timer and the signalling relay all cross instances. Runs when TEST_DATABASE_URL and TEST_REDIS_URL
 * are set.
 */
describe.runIf(databaseUrl && redisUrl)('calls across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  let instances: TwoInstances | undefined;

  beforeAll(async () => {
    instances = await startTwoInstances({ databaseUrl: databaseUrl!, label: 'calls', redisUrl: redisUrl! });
    ({ a, b } = instances);
  });

  afterAll(async () => {
    await instances?.close();
  });

  async function signIn(server: TestServer, name: string) {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, {
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`,
    });
    const id = ((await (await client.request('/api/auth/user')).json()) as { id: string }).id;
    return { client, id };
  }

  it('rings, accepts and relays signalling between instances; a miss times out across them', async () => {
    const ann = await signIn(a, 'Ann Alpha');
    const bob = await signIn(b, 'Bob Beta');
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
    bobWs.send({ type: 'call_accepted', callId: call.callId });
    await annWs.next((m: Message) => m.type === 'call_accepted' && m.callId === call.callId);

    const annRtc = await TestSocket.open(ann.client, { path: '/ws/webrtc' });
    annRtc.send({ type: 'join_room', roomName: call.roomName });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const bobRtc = await TestSocket.open(bob.client, { path: '/ws/webrtc' });
    bobRtc.send({ type: 'join_room', roomName: call.roomName });
    await annRtc.next((m: Message) => m.type === 'peer_joined' && m.userId === bob.id);
    annRtc.send({
      type: 'offer',
      roomName: call.roomName,
      offer: { type: 'offer', sdp: 'v=0\r\n' },
    });
    expect(await bobRtc.next((m: Message) => m.type === 'offer')).toMatchObject({ userId: ann.id });

    const closed = bobRtc.closed();
    bobWs.send({ type: 'call_ended', callId: call.callId });
    await annWs.next((m: Message) => m.type === 'call_ended' && m.callId === call.callId);
    expect((await closed).code).toBe(1000);

    callTimings(a.app).ringTimeoutMs = 600;
    const unanswered = { ...call, callId: randomUUID(), roomName: `room-${randomUUID()}` };
    annWs.send(unanswered);
    await bobWs.next((m: Message) => m.type === 'incoming_call' && m.callId === unanswered.callId);
    await bobWs.next(
      (m: Message) => m.type === 'call_missed' && m.callId === unanswered.callId,
      3000,
    );
    for (const socket of [annWs, bobWs, annRtc]) await socket.close();
  });

  it('rings a device that opens on the other instance after the call was placed; ends the call when its last socket there closes', async () => {
    const ann = await signIn(a, 'Ann Alpha');
    const bob = await signIn(b, 'Bob Beta');
    const annWs = await TestSocket.open(ann.client);
    const call = {
      type: 'initiate_call',
      callId: randomUUID(),
      receiverId: bob.id,
      roomName: `room-${randomUUID()}`,
    };
    annWs.send(call);
    // Bob has no page open yet: the call rings for him on the server only.
    for (;;) {
      const history = (await (await bob.client.request('/api/calls')).json()) as { callId: string }[];
      if (history.some((entry) => entry.callId === call.callId)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bobWs = await TestSocket.open(bob.client);
    await bobWs.next((m: Message) => m.type === 'incoming_call' && m.callId === call.callId);
    bobWs.send({ type: 'call_accepted', callId: call.callId });
    await annWs.next((m: Message) => m.type === 'call_accepted' && m.callId === call.callId);

    const grace = callTimings(b.app).disconnectGraceMs;
    callTimings(b.app).disconnectGraceMs = 300;
    try {
      await bobWs.close();
      const ended = await annWs.next(
        (m: Message) => m.type === 'call_ended' && m.callId === call.callId,
        3000,
      );
      expect(ended).toMatchObject({ reason: 'disconnected' });
    } finally {
      callTimings(b.app).disconnectGraceMs = grace;
    }
    await annWs.close();
  });
});
