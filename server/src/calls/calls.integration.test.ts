import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallHistoryEntry } from '../../../protocol/calls.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { callTimings } from './calls.js';

interface Person {
  client: TestClient;
  id: string;
  name: string;
}

type Message = Record<string, unknown> & { type: string };

let counter = 0;
async function person(server: TestServer, first: string): Promise<Person> {
  counter += 1;
  const name = `${first} Caller${counter}`;
  const client = new TestClient(server.baseUrl);
  await signInBuiltIn(client, {
    name,
    email: `${first.toLowerCase()}.${counter}.${Date.now()}@example.com`,
  });
  const me = (await (await client.request('/api/auth/user')).json()) as { id: string };
  return { client, id: me.id, name };
}

const newCall = (receiverId: string) => ({
  type: 'initiate_call',
  callId: randomUUID(),
  receiverId,
  roomName: `call-${randomUUID()}`,
});

const ofType = (type: string, callId?: string) => (m: Message) =>
  m.type === type && (callId === undefined || m.callId === callId);
async function waitForHistory(
  who: Person,
  callId: string,
  outcome: CallHistoryEntry['outcome'],
): Promise<void> {
  for (;;) {
    const history = (await (await who.client.request('/api/calls')).json()) as CallHistoryEntry[];
    if (history.some((entry) => entry.callId === callId && entry.outcome === outcome)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabases())('one-to-one calls on $name', (database) => {
  let server: TestServer;
  /** Signed in once: sign-in is rate limited, and every test leaves its calls ended. */
  const people = {} as Record<'ann' | 'bob' | 'cem' | 'dan' | 'eve', Person>;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    people.ann = await person(server, 'Ann');
    people.bob = await person(server, 'Bob');
    people.cem = await person(server, 'Cem');
    people.dan = await person(server, 'Dan');
    people.eve = await person(server, 'Eve');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('rings every device of the receiver; accepting on one stops the others and tells the caller', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const phone = await TestSocket.open(bob.client);
    const laptop = await TestSocket.open(bob.client);
    const call = newCall(bob.id);
    caller.send({ ...call, callerId: ann.id });

    for (const device of [phone, laptop]) {
      const incoming = await device.next<Message>(ofType('incoming_call', call.callId));
      expect(incoming).toEqual({
        type: 'incoming_call',
        callId: call.callId,
        roomName: call.roomName,
        callerId: ann.id,
        callerName: ann.name,
        callerProfileImageUrl: null,
        contactId: ann.id,
        contactName: ann.name,
        contactProfileImageUrl: null,
        isInitiator: false,
      });
    }
    phone.send({
      type: 'call_accepted',
      callId: call.callId,
      roomName: call.roomName,
      deviceId: 'phone',
    });
    expect(await caller.next<Message>(ofType('call_accepted', call.callId))).toEqual({
      type: 'call_accepted',
      callId: call.callId,
      roomName: call.roomName,
    });
    const stop = await laptop.next<Message>(ofType('call_ended', call.callId));
    expect(stop).toMatchObject({ reason: 'answered_elsewhere', deviceId: 'phone' });

    // A second accept (the other device racing) changes nothing.
    laptop.send({ type: 'call_accepted', callId: call.callId, deviceId: 'laptop' });
    await pause(200);
    expect(caller.received.filter((m) => (m as Message).type === 'call_accepted')).toHaveLength(1);

    // The receiver hangs up: the caller hears of it.
    phone.send({ type: 'call_ended', callId: call.callId });
    expect(await caller.next<Message>(ofType('call_ended', call.callId))).toMatchObject({
      reason: 'hangup',
    });

    const history = (await (await ann.client.request('/api/calls')).json()) as CallHistoryEntry[];
    expect(history[0]).toMatchObject({
      callId: call.callId,
      direction: 'outgoing',
      contactId: bob.id,
      contactName: bob.name,
      outcome: 'answered',
    });
    const bobs = (await (await bob.client.request('/api/calls')).json()) as CallHistoryEntry[];
    expect(bobs[0]).toMatchObject({
      callId: call.callId,
      direction: 'incoming',
      contactId: ann.id,
      outcome: 'answered',
    });
    for (const socket of [caller, phone, laptop]) await socket.close();
  });

  it('rings a device that connects while the call still rings (opened from its notification), and not once it stopped', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const call = newCall(bob.id);
    caller.send(call);
    // Bob has no page open: the call rings for him on the server only.
    await waitForHistory(bob, call.callId, 'ongoing');
    const opened = await TestSocket.open(bob.client);
    expect(await opened.next<Message>(ofType('incoming_call', call.callId))).toMatchObject({
      callId: call.callId,
      roomName: call.roomName,
      callerId: ann.id,
      contactName: ann.name,
      isInitiator: false,
    });
    opened.send({ type: 'call_declined', callId: call.callId });
    await caller.next<Message>(ofType('call_declined', call.callId));
    const later = await TestSocket.open(bob.client);
    await pause(200);
    expect(later.received.filter((m) => (m as Message).type === 'incoming_call')).toEqual([]);
    for (const socket of [caller, opened, later]) await socket.close();
  });

  it('rings a device that connects to an instance started while the call rang', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const call = newCall(bob.id);
    caller.send(call);
    await waitForHistory(bob, call.callId, 'ongoing');
    // A restarted server (or another instance without Redis) on the same database.
    const restarted = await startTestServer(server.database);
    try {
      const bobThere = new TestClient(restarted.baseUrl);
      for (const [name, value] of bob.client.cookies) bobThere.cookies.set(name, value);
      const opened = await TestSocket.open(bobThere);
      await opened.next<Message>(ofType('incoming_call', call.callId));
      await opened.close();
    } finally {
      await restarted.close();
    }
    // The two share no bus: the caller gives up on the first one.
    caller.send({ type: 'call_ended', callId: call.callId });
    await waitForHistory(bob, call.callId, 'missed');
    await caller.close();
  });

  it('tells the caller when the receiver declines', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const receiver = await TestSocket.open(bob.client);
    const call = newCall(bob.id);
    caller.send(call);
    await receiver.next(ofType('incoming_call', call.callId));
    receiver.send({ type: 'call_declined', callId: call.callId });
    expect(await caller.next<Message>(ofType('call_declined', call.callId))).toMatchObject({
      reason: 'Call declined',
    });
    const history = (await (await bob.client.request('/api/calls')).json()) as CallHistoryEntry[];
    expect(history[0]).toMatchObject({ outcome: 'declined', durationSeconds: 0 });
    await caller.close();
    await receiver.close();
  });

  it('sends call_missed to both sides when nobody answers in time', async () => {
    const timings = callTimings(server.app);
    const before = timings.ringTimeoutMs;
    timings.ringTimeoutMs = 800;
    try {
      const ann = people.ann;
      const bob = people.bob;
      const caller = await TestSocket.open(ann.client);
      const receiver = await TestSocket.open(bob.client);
      const call = newCall(bob.id);
      caller.send(call);
      await receiver.next(ofType('incoming_call', call.callId));
      await caller.next(ofType('call_missed', call.callId), 3000);
      await receiver.next(ofType('call_missed', call.callId), 3000);
      // Answering too late does nothing.
      receiver.send({ type: 'call_accepted', callId: call.callId });
      await pause(200);
      expect(caller.received.some((m) => (m as Message).type === 'call_accepted')).toBe(false);
      const history = (await (await bob.client.request('/api/calls')).json()) as CallHistoryEntry[];
      expect(history[0]).toMatchObject({
        callId: call.callId,
        outcome: 'missed',
        direction: 'incoming',
      });
      await caller.close();
      await receiver.close();
    } finally {
      timings.ringTimeoutMs = before;
    }
  });

  it('stops the ringing when the caller hangs up first, and leaves the receiver a missed call', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const receiver = await TestSocket.open(bob.client);
    const otherDevice = await TestSocket.open(bob.client);
    const call = newCall(bob.id);
    caller.send(call);
    await receiver.next(ofType('incoming_call', call.callId));
    await otherDevice.next(ofType('incoming_call', call.callId));
    caller.send({ type: 'call_ended', callId: call.callId });
    // Every device of the receiver stops ringing as for a call that rang out.
    await receiver.next(ofType('call_missed', call.callId));
    await otherDevice.next(ofType('call_missed', call.callId));
    expect(await caller.next<Message>(ofType('call_ended', call.callId))).toMatchObject({
      reason: 'hangup',
    });
    const callerHistory = (await (
      await ann.client.request('/api/calls')
    ).json()) as CallHistoryEntry[];
    expect(callerHistory[0]).toMatchObject({
      callId: call.callId,
      direction: 'outgoing',
      outcome: 'cancelled',
    });
    const receiverHistory = (await (
      await bob.client.request('/api/calls')
    ).json()) as CallHistoryEntry[];
    expect(receiverHistory[0]).toMatchObject({
      callId: call.callId,
      direction: 'incoming',
      outcome: 'missed',
      contactId: ann.id,
      answeredAt: null,
      durationSeconds: 0,
    });
    // Answering after the caller gave up does nothing.
    receiver.send({ type: 'call_accepted', callId: call.callId });
    await pause(200);
    expect(caller.received.some((m) => (m as Message).type === 'call_accepted')).toBe(false);
    await caller.close();
    await receiver.close();
    await otherDevice.close();
  });

  it('leaves no missed call when the receiver ends a ringing call themselves', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const receiver = await TestSocket.open(bob.client);
    const call = newCall(bob.id);
    caller.send(call);
    await receiver.next(ofType('incoming_call', call.callId));
    receiver.send({ type: 'call_ended', callId: call.callId });
    await caller.next(ofType('call_ended', call.callId));
    const history = (await (await bob.client.request('/api/calls')).json()) as CallHistoryEntry[];
    expect(history[0]).toMatchObject({ callId: call.callId, outcome: 'cancelled' });
    await caller.close();
    await receiver.close();
  });

  it('declines for the receiver who blocked the caller, and never rings them', async () => {
    const ann = people.dan;
    const bob = people.eve;
    expect(
      (await bob.client.request(`/api/users/${ann.id}/block`, { method: 'POST' })).status,
    ).toBe(200);
    const caller = await TestSocket.open(ann.client);
    const receiver = await TestSocket.open(bob.client);
    const call = newCall(bob.id);
    caller.send(call);
    expect(await caller.next<Message>(ofType('call_declined', call.callId))).toMatchObject({
      reason: 'User is not available',
    });
    await pause(200);
    expect(receiver.received).toEqual([]);
    await caller.close();
    await receiver.close();
  });

  it('declines with "User is busy" while the receiver is in another call', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const cem = people.cem;
    const annSocket = await TestSocket.open(ann.client);
    const bobSocket = await TestSocket.open(bob.client);
    const cemSocket = await TestSocket.open(cem.client);
    const first = newCall(bob.id);
    annSocket.send(first);
    await bobSocket.next(ofType('incoming_call', first.callId));
    bobSocket.send({ type: 'call_accepted', callId: first.callId });
    await annSocket.next(ofType('call_accepted', first.callId));

    const second = newCall(bob.id);
    cemSocket.send(second);
    expect(await cemSocket.next<Message>(ofType('call_declined', second.callId))).toMatchObject({
      reason: 'User is busy',
    });
    // Busy works both ways: someone in a call cannot place another one.
    const third = newCall(cem.id);
    annSocket.send(third);
    expect(await annSocket.next<Message>(ofType('call_declined', third.callId))).toMatchObject({
      reason: 'User is busy',
    });
    await pause(100);
    expect(bobSocket.received.filter((m) => (m as Message).type === 'incoming_call')).toHaveLength(
      1,
    );
    annSocket.send({ type: 'call_ended', callId: first.callId });
    await bobSocket.next(ofType('call_ended', first.callId));
    for (const socket of [annSocket, bobSocket, cemSocket]) await socket.close();
  });

  it('lets only one of two simultaneous callers ring the same person', async () => {
    const ann = people.ann;
    const cem = people.cem;
    const bob = people.bob;
    const annSocket = await TestSocket.open(ann.client);
    const cemSocket = await TestSocket.open(cem.client);
    const bobSocket = await TestSocket.open(bob.client);
    const fromAnn = newCall(bob.id);
    const fromCem = newCall(bob.id);
    annSocket.send(fromAnn);
    cemSocket.send(fromCem);
    const ring = await bobSocket.next<Message>(ofType('incoming_call'));
    await pause(300);
    expect(bobSocket.received.filter((m) => (m as Message).type === 'incoming_call')).toHaveLength(
      1,
    );
    const loser = ring.callId === fromAnn.callId ? cemSocket : annSocket;
    const loserCall = ring.callId === fromAnn.callId ? fromCem : fromAnn;
    expect(await loser.next<Message>(ofType('call_declined', loserCall.callId))).toMatchObject({
      reason: 'User is busy',
    });
    bobSocket.send({ type: 'call_declined', callId: ring.callId });
    for (const socket of [annSocket, cemSocket, bobSocket]) await socket.close();
  });

  it('refuses a spoofed caller, a call to oneself, an unknown user, a reused call id and a bad id', async () => {
    const ann = people.ann;
    const bob = people.bob;
    const caller = await TestSocket.open(ann.client);
    const receiver = await TestSocket.open(bob.client);
    const spoofed = { ...newCall(bob.id), callerId: bob.id };
    caller.send(spoofed);
    expect(await caller.next<Message>(ofType('call_declined', spoofed.callId))).toMatchObject({
      reason: 'Call could not be started',
    });
    const self = newCall(ann.id);
    caller.send(self);
    expect(await caller.next<Message>(ofType('call_declined', self.callId))).toMatchObject({
      reason: 'You cannot call yourself',
    });
    const nobody = newCall('no-such-user');
    caller.send(nobody);
    expect(await caller.next<Message>(ofType('call_declined', nobody.callId))).toMatchObject({
      reason: 'User is not available',
    });

    const first = newCall(bob.id);
    caller.send(first);
    await receiver.next(ofType('incoming_call', first.callId));
    caller.send({ type: 'call_ended', callId: first.callId });
    await receiver.next(ofType('call_missed', first.callId));
    const reused = { ...newCall(bob.id), callId: first.callId };
    caller.send(reused);
    expect(
      await caller.next<Message>((m) => m.type === 'call_declined' && m.callId === first.callId),
    ).toMatchObject({
      reason: 'Call could not be started',
    });
    caller.send({ ...newCall(bob.id), roomName: '../../etc' });
    await pause(200);
    expect(receiver.received.filter((m) => (m as Message).type === 'incoming_call')).toHaveLength(
      1,
    );
    await caller.close();
    await receiver.close();
  });

  it("ends the call after a grace period when a party's last socket is gone, not before", async () => {
    const timings = callTimings(server.app);
    const before = timings.disconnectGraceMs;
    timings.disconnectGraceMs = 500;
    try {
      const ann = people.ann;
      const bob = people.bob;
      const caller = await TestSocket.open(ann.client);
      let receiver = await TestSocket.open(bob.client);
      const call = newCall(bob.id);
      caller.send(call);
      await receiver.next(ofType('incoming_call', call.callId));
      receiver.send({ type: 'call_accepted', callId: call.callId });
      await caller.next(ofType('call_accepted', call.callId));

      // Back within the grace period: the call survives.
      await receiver.close();
      receiver = await TestSocket.open(bob.client);
      await pause(800);
      expect(caller.received.some((m) => (m as Message).type === 'call_ended')).toBe(false);

      await receiver.close();
      expect(await caller.next<Message>(ofType('call_ended', call.callId), 3000)).toMatchObject({
        reason: 'disconnected',
      });
      await caller.close();
    } finally {
      timings.disconnectGraceMs = before;
    }
  });

  it('answers ICE servers and call history only to signed-in users', async () => {
    const anonymous = new TestClient(server.baseUrl);
    expect((await anonymous.request('/api/calls')).status).toBe(401);
    expect((await anonymous.request('/api/calls/ice-servers')).status).toBe(401);
    const ann = people.ann;
    const ice = (await (await ann.client.request('/api/calls/ice-servers')).json()) as {
      iceServers: unknown[];
    };
    expect(ice, JSON.stringify(ice)).toMatchObject({ iceServers: server.config.iceServers });
  });
});
