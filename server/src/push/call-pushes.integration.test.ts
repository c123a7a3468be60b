import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTimings } from '../calls/calls.js';
import { signIn, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { TestSocket } from '../testing/test-socket.js';
import { LocalPushService } from './testing/local-push-service.js';
import { pushTopic } from './push-texts.js';
import { PushDevices, type Device } from '../testing/push-devices.js';

type Message = Record<string, unknown> & { type: string };
const ofType = (type: string, callId: string) => (m: Message) => m.type === type && m.callId === callId;
const newCall = (receiverId: string) => ({
  type: 'initiate_call',
  callId: randomUUID(),
  receiverId,
  roomName: `call-${randomUUID()}`,
});

describe.each(testDatabases())('call push notifications on $name', (database) => {
  let server: TestServer;
  let pushService: LocalPushService;
  let ann: Person;
  let devices: PushDevices;

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    server = await startTestServer(await database.open(), {}, { pushAgent: pushService.agent });
    devices = new PushDevices(pushService, () => server);
    ann = await signIn(server, 'Ann A', 'ann@example.com');
  });
  afterAll(async () => {
    await devices.close();
    await server.close();
    await server.database.close();
    await pushService.close();
  });
  beforeEach(() => {
    pushService.received.length = 0;
  });

  const device = (name: string, email: string) => devices.device(name, email);
  const page = (of: Device, visible: boolean) => devices.page(of, visible);
  const pushesTo = (of: Device) => devices.pushesTo(of);

  async function caller(name: string, email: string): Promise<TestSocket> {
    return devices.socket(name === 'Ann A' ? ann : await signIn(server, name, email));
  }

  it('rings a device whose page is closed or hidden, once, urgently for 30 s; a device with a visible page gets none', async () => {
    const closed = await device('Bob B', 'bob@example.com');
    const hidden = await device('Bob B', 'bob@example.com');
    const visible = await device('Bob B', 'bob@example.com');
    const hiddenPage = await page(hidden, false);
    await page(visible, true);
    const call = newCall(closed.person.id);
    (await caller('Ann A', 'ann@example.com')).send(call);
    // The ring reached the hidden page: its push was decided before, and is awaited here.
    await hiddenPage.next<Message>(ofType('incoming_call', call.callId));
    await server.app.ctx.notifier.idle();

    const expected = {
      kind: 'call',
      title: 'Incoming call',
      body: 'Ann A is calling',
      tag: `call-${call.callId}`,
      url: `/?call=${call.callId}`,
    };
    expect(pushesTo(closed)).toEqual([expected]);
    expect(pushesTo(hidden)).toEqual([expected]);
    expect(pushesTo(visible)).toEqual([]);
    const push = pushService.received.find((p) => p.path === closed.path)!;
    expect(push.headers).toMatchObject({ ttl: '30', urgency: 'high' });
    expect(pushService.received).toHaveLength(2);
  });

  it('tells of a call that rang out unanswered with "Missed call from <name>", under the same tag', async () => {
    const phone = await device('Cy C', 'cy@example.com');
    const hiddenPage = await page(phone, false);
    const timings = callTimings(server.app);
    const ring = timings.ringTimeoutMs;
    timings.ringTimeoutMs = 200;
    try {
      const call = newCall(phone.person.id);
      (await caller('Gil G', 'gil@example.com')).send(call);
      await hiddenPage.next<Message>(ofType('call_missed', call.callId));
      await server.app.ctx.notifier.idle();
      expect(pushesTo(phone).map((p) => [p.kind, p.title, p.tag, p.url])).toEqual([
        ['call', 'Incoming call', `call-${call.callId}`, `/?call=${call.callId}`],
        ['missed-call', 'Missed call from Gil G', `call-${call.callId}`, `/?call=${call.callId}`],
      ]);
    } finally {
      timings.ringTimeoutMs = ring;
    }
  });

  it('tells of a call whose caller hung up before it was answered as missed; one the receiver declined is not', async () => {
    const phone = await device('Dee D', 'dee@example.com');
    const hiddenPage = await page(phone, false);
    const ada = await caller('Ada A', 'ada@example.com');

    const givenUp = newCall(phone.person.id);
    ada.send(givenUp);
    await hiddenPage.next<Message>(ofType('incoming_call', givenUp.callId));
    ada.send({ type: 'call_ended', callId: givenUp.callId });
    await hiddenPage.next<Message>(ofType('call_missed', givenUp.callId));

    const declined = newCall(phone.person.id);
    ada.send(declined);
    await hiddenPage.next<Message>(ofType('incoming_call', declined.callId));
    hiddenPage.send({ type: 'call_declined', callId: declined.callId });
    await ada.next<Message>(ofType('call_declined', declined.callId));
    await server.app.ctx.notifier.idle();

    expect(pushesTo(phone).map((p) => [p.kind, p.title, p.tag])).toEqual([
      ['call', 'Incoming call', `call-${givenUp.callId}`],
      ['missed-call', 'Missed call from Ada A', `call-${givenUp.callId}`],
      ['call', 'Incoming call', `call-${declined.callId}`],
    ]);
  });

  it("sends one person's pushes in the order their events came, even when the first takes longer to prepare", async () => {
    const phone = await device('Hal H', 'hal@example.com');
    const tag = `call-${randomUUID()}`;
    const event = (kind: 'call' | 'missed-call', title: string, preparedInMs: number) => ({
      key: `${kind}:${tag}`,
      preference: 'calls' as const,
      actorId: ann.id,
      delivery: { ttlSeconds: 30, urgency: 'high' as const, topic: pushTopic(tag) },
      payload: async () => {
        await new Promise((resolve) => setTimeout(resolve, preparedInMs));
        return { kind, title, body: '', tag, url: '/' };
      },
    });
    // The ring's payload is slow (its caller's name is read), the missed call's is not: the missed
    // call must still come second, or the ring would replace it on the device.
    server.app.ctx.notifier.notify([phone.person.id], event('call', 'Incoming call', 150));
    server.app.ctx.notifier.notify([phone.person.id], event('missed-call', 'Missed call', 0));
    await server.app.ctx.notifier.idle();
    expect(pushesTo(phone).map((p) => p.title)).toEqual(['Incoming call', 'Missed call']);
  });

  it('pushes nothing for a caller the receiver blocked', async () => {
    const phone = await device('Eve E', 'eve@example.com');
    const mal = await signIn(server, 'Mal M', 'mal@example.com');
    expect((await phone.person.client.request(`/api/users/${mal.id}/block`, { method: 'POST' })).status).toBe(200);
    const malSocket = await devices.socket(mal);
    const call = newCall(phone.person.id);
    malSocket.send(call);
    await malSocket.next<Message>(ofType('call_declined', call.callId));
    await server.app.ctx.notifier.idle();
    expect(pushesTo(phone)).toEqual([]);
  });

  it('pushes no call to a person who turned call notifications off', async () => {
    const phone = await device('Fay F', 'fay@example.com');
    const off = { calls: false, pokes: true, transmissions: true, channelAdds: true };
    const saved = await phone.person.client.request('/api/push/preferences', { method: 'PUT', json: off });
    expect(saved.status).toBe(200);
    expect(await (await phone.person.client.request('/api/push/preferences')).json()).toEqual(off);
    const hiddenPage = await page(phone, false);
    const call = newCall(phone.person.id);
    (await caller('Hal H', 'hal@example.com')).send(call);
    await hiddenPage.next<Message>(ofType('incoming_call', call.callId));
    await server.app.ctx.notifier.idle();
    expect(pushesTo(phone)).toEqual([]);
  });
});
