import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { channelMembers, channels } from '../db/schema.js';
import { signIn, type Person } from '../testing/people.js';
import type { TestServer } from '../testing/test-server.js';
import { startTwoInstances, type TwoInstances } from '../testing/two-instances.js';
import { TestSocket, WAIT_FOR_MESSAGE_MS } from '../testing/test-socket.js';
import { keepAndAnnounce } from '../transmissions/keep-transmissions.js';
import { TransmissionRecording } from '../transmissions/transmission-recording.js';
import { LocalPushService } from './testing/local-push-service.js';
import { PushDevices } from '../testing/push-devices.js';
import { transmissionPushes } from './transmission-pushes.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two instances on one PostgreSQL database and one Redis: a page visible through instance A keeps
 * an event on instance B from pushing to that device, and an event both instances see pushes once
 * per device. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
describe.runIf(databaseUrl && redisUrl)('push notifications across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  let instances: TwoInstances | undefined;
  let pushService: LocalPushService;
  let devices: PushDevices;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    instances = await startTwoInstances({ databaseUrl: databaseUrl!, label: 'push_events', redisUrl: redisUrl!, server: { pushAgent: pushService.agent } });
    ({ a, b } = instances);
    devices = new PushDevices(pushService, () => a);
  });

  afterAll(async () => {
    for (const socket of sockets) await socket.close();
    await devices?.close();
    await instances?.close();
    await pushService?.close();
  });

  /** The person's session, used through the other instance (a load balancer may send it anywhere). */
  const through = (server: TestServer, person: Person): TestClient => {
    const client = new TestClient(server.baseUrl);
    for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
    return client;
  };

  it('a call on B pushes to the device whose page is closed, not to the one whose page is visible through A', async () => {
    const closed = await devices.device('Ben B', 'ben@example.com', b);
    const visible = await devices.device('Ben B', 'ben@example.com', b);
    const page = await TestSocket.open(through(a, visible.person));
    sockets.push(page);
    page.send({ type: 'visibility', visible: true });
    await vi.waitFor(async () => expect((await b.app.ctx.presence.visibleSessions(visible.person.id)).size).toBe(1), {
      timeout: WAIT_FOR_MESSAGE_MS,
    });

    const ann = await signIn(b, 'Ann A', 'ann@example.com');
    const caller = await TestSocket.open(ann.client);
    sockets.push(caller);
    const callId = randomUUID();
    caller.send({ type: 'initiate_call', callId, receiverId: closed.person.id, roomName: `call-${randomUUID()}` });
    // The page on A hears the ring; by then B decided its pushes.
    await page.next<{ type: string; callId?: string }>((m) => m.type === 'incoming_call' && m.callId === callId);
    await b.app.ctx.notifier.idle();
    expect(devices.pushesTo(closed).map((p) => [p.kind, p.body])).toEqual([['call', 'Ann A is calling']]);
    expect(devices.pushesTo(visible)).toEqual([]);
  });

  it('one transmission that both instances push sends one notification per device', async () => {
    const ava = await signIn(a, 'Ava A', 'ava@example.com');
    const phone = await devices.device('Cal C', 'cal@example.com', a);
    const laptop = await devices.device('Cal C', 'cal@example.com', a);
    // A walkie-talkie channel of the two, as an admin makes it (the owner's setup is per test server).
    const db = a.database.db;
    const [channel] = await db.insert(channels).values({ name: 'Family', createdBy: ava.id, talkMode: 'walkie' }).returning();
    const channelId = channel!.id;
    await db.insert(channelMembers).values([
      { channelId, userId: ava.id, role: 'admin' },
      { channelId, userId: phone.person.id },
    ]);
    pushService.received.length = 0;

    let now = Date.now();
    const recording = new TransmissionRecording(ava.id, { now: () => now });
    for (let i = 0; i < 100; i++) {
      recording.push(1, i * 960, Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(90, 0x11)]));
      now += 20;
    }
    const transmission = recording.finish()!;
    const { ctx } = a.app;
    await keepAndAnnounce({ store: ctx.transmissions, channelEvents: ctx.channelEvents, log: a.app.log }, channelId, transmission, []);
    // Both instances see the same kept transmission and push it at the same moment.
    const kept = { channelId, speakerId: ava.id, startedAt: transmission.startedAt, durationMs: transmission.durationMs, heardBy: [] };
    for (const server of [a, b]) transmissionPushes(server.app.ctx.notifier, server.app.ctx.database.db)(kept);
    await Promise.all([a.app.ctx.notifier.idle(), b.app.ctx.notifier.idle()]);

    for (const device of [phone, laptop]) expect(devices.pushesTo(device).map((p) => p.title)).toEqual(['Ava A · Family · 0:02']);
    expect(pushService.received).toHaveLength(2);
  });
});
