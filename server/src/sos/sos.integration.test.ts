import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../../protocol/channels.js';
import type { FloorDenied, FloorState } from '../../../protocol/floor.js';
import {
  SOS_ALERT_NOT_FOUND,
  SOS_ALREADY_RESOLVED,
  SOS_LOCATION_CLOSED,
  SOS_NOT_MEMBER,
  SOS_NOT_SOS_CHANNEL,
  SOS_ONLY_SENDER_LOCATES,
  SOS_ONLY_SENDER_OR_ADMIN_RESOLVES,
  sosPushBody,
  sosTitle,
  type SosAlert,
} from '../../../protocol/sos.js';
import { sosAlerts } from '../db/schema.js';
import { LocalPushService } from '../push/testing/local-push-service.js';
import { PushDevices, type Device } from '../testing/push-devices.js';
import { addToChannel, createChannel, signInOwner, startConversation, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { TestSocket } from '../testing/test-socket.js';
import { joinVoiceCounted } from '../testing/voice-join.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import { SOS_RAISES_PER_HOUR } from './sos-alerts.js';

const redisUrl = process.env.TEST_REDIS_URL;

/** PGlite on one process; PostgreSQL with Redis (floor, bus, counters) when both are at hand. */
const setups = testDatabases().map((database) => {
  const withRedis = database.name === 'postgres' && redisUrl !== undefined;
  const env: Record<string, string> = withRedis
    ? { REDIS_URL: redisUrl, REDIS_PREFIX: `chirp-sos-${randomBytes(4).toString('hex')}:` }
    : {};
  return { ...database, name: withRedis ? 'postgres and Redis' : database.name, env };
});

const ALL_OFF = { calls: false, pokes: false, transmissions: false, channelAdds: false };

const alertMessage = (id: string, match: (alert: SosAlert) => boolean = () => true) =>
  (m: { type: string; alert?: SosAlert }) => m.type === 'sos_alert' && m.alert?.id === id && match(m.alert);

const floorOf = (channelId: number, holderId: string | null) => (m: FloorState) =>
  m.type === 'floor_state' && m.channelId === channelId && (m.holder?.id ?? null) === holderId;

/**
 * Family SOS through the real server (decision 050): the channel setting, raising and extending,
 * the SOS floor, every member's alert (socket and a high-urgency push whatever their preferences and
 * blocks), location, "I'm on it", resolving, and who may do which.
 */
describe.each(setups)('Family SOS on $name', (setup) => {
  let server: TestServer;
  let pushService: LocalPushService;
  let devices: PushDevices;
  let owen: Person;
  let seq = 0;
  const voices: WeriftVoiceClient[] = [];
  /** A new person with one device whose page is closed (pushes reach it). */
  const someone = async (first: string): Promise<Device> =>
    devices.device(`${first} ${first[0]}`, `${first.toLowerCase()}.${++seq}@example.com`);

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    server = await startTestServer(await setup.open(), setup.env, { pushAgent: pushService.agent });
    devices = new PushDevices(pushService, () => server);
    owen = await signInOwner(server, 'Owen O', 'owen@example.com');
  });
  afterAll(async () => {
    await Promise.all(voices.map((voice) => voice.close()));
    await devices.close();
    await server.close();
    await server.database.close();
    await pushService.close();
  });
  beforeEach(() => {
    pushService.received.length = 0;
  });

  const put = (who: Person, path: string, json: unknown) => who.client.request(path, { method: 'PUT', json });
  const post = (who: Person, path: string, json?: unknown) =>
    who.client.request(path, { method: 'POST', ...(json === undefined ? {} : { json }) });
  const raise = (who: Person, channelId: number) => post(who, '/api/sos', { channelId });
  const resolve = (who: Person, id: string) => post(who, `/api/sos/${id}/resolve`);
  const ack = (who: Person, id: string) => post(who, `/api/sos/${id}/ack`);
  const locate = (who: Person, id: string, at = { latitude: 48.85, longitude: 2.35, accuracy: 12 }) =>
    put(who, `/api/sos/${id}/location`, at);
  const openAlerts = async (who: Person) => (await (await who.client.request('/api/sos')).json()) as SosAlert[];
  /** An SOS channel of Owen's with these members, in this talk mode. */
  const sosChannel = async (name: string, members: Person[], talkMode: 'open' | 'walkie' = 'walkie', sosSeconds = 10) => {
    const id = await createChannel(owen, name);
    for (const member of members) await addToChannel(owen, id, member);
    expect((await put(owen, `/api/channels/${id}/talk-mode`, { talkMode })).status).toBe(200);
    expect((await put(owen, `/api/channels/${id}/sos`, { sos: true, sosSeconds })).status).toBe(200);
    return id;
  };
  const viewing = async (who: Person, channelId: number): Promise<TestSocket> => {
    const socket = await devices.socket(who);
    socket.send({ type: 'join_channel', channelId, userId: who.id });
    return socket;
  };

  it('only a channel admin makes a group channel an SOS channel; every list then says so', async () => {
    const bea = await someone('Bea');
    const id = await createChannel(owen, 'Family');
    await addToChannel(owen, id, bea.person);
    const beaSocket = await devices.socket(bea.person);
    expect((await put(bea.person, `/api/channels/${id}/sos`, { sos: true })).status).toBe(403);
    expect((await put(owen, `/api/channels/${id}/sos`, { sos: true, sosSeconds: 4 })).status).toBe(400);
    expect((await put(owen, `/api/channels/${id}/sos`, { sos: true, sosSeconds: 31 })).status).toBe(400);
    expect((await put(owen, `/api/channels/${id}/sos`, { sos: 'yes' })).status).toBe(400);
    expect((await put(owen, '/api/channels/999999/sos', { sos: true })).status).toBe(404);
    const saved = await put(owen, `/api/channels/${id}/sos`, { sos: true, sosSeconds: 20 });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ sos: true, sosSeconds: 20 });
    await beaSocket.next((m: { type: string; change?: string; channelId?: number }) =>
      m.type === 'channel_changed' && m.change === 'sos_changed' && m.channelId === id);
    const mine = (await (await bea.person.client.request(`/api/users/${bea.person.id}/channels`)).json()) as Channel[];
    expect(mine.find((c) => c.id === id)).toMatchObject({ sos: true, sosSeconds: 20 });
    const all = (await (await owen.client.request('/api/channels')).json()) as Channel[];
    expect(all.find((c) => c.id === id)).toMatchObject({ sos: true, sosSeconds: 20 });
    // The seconds stay when only the switch moves.
    expect(await (await put(owen, `/api/channels/${id}/sos`, { sos: false })).json()).toEqual({ sos: false, sosSeconds: 20 });
    // A direct conversation has no admin: nobody makes it an SOS channel.
    const direct = await startConversation(bea.person, owen);
    expect((await put(owen, `/api/channels/${direct}/sos`, { sos: true })).status).toBeGreaterThanOrEqual(403);
    expect((await raise(bea.person, direct)).status).toBe(400);
  });

  it('raising alerts every member on every device, pushes the others at high urgency whatever their settings and blocks', async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const dee = await someone('Dee');
    const id = await sosChannel('Home', [bea.person, cal.person, dee.person]);
    // Cal turned every notification off; Dee blocked Bea: the alert reaches them all the same.
    expect((await put(cal.person, '/api/push/preferences', ALL_OFF)).status).toBe(200);
    expect((await post(dee.person, `/api/users/${bea.person.id}/block`)).status).toBeLessThan(300);
    const sockets = await Promise.all([bea, cal, dee].map((d) => devices.socket(d.person)));
    const owenSocket = await devices.socket(owen);

    const raised = await raise(bea.person, id);
    expect(raised.status).toBe(201);
    const alert = (await raised.json()) as SosAlert;
    expect(alert).toMatchObject({
      channelId: id,
      channelName: 'Home',
      sender: { id: bea.person.id, name: 'Bea B' },
      location: null,
      acks: [],
      resolvedAt: null,
      resolvedBy: null,
      transmissions: [],
    });
    expect(alert.talkUntil).toBeGreaterThan(Date.now() + 8_000);
    for (const socket of [...sockets, owenSocket]) await socket.next(alertMessage(alert.id));

    await server.app.ctx.notifier.idle();
    const sosPushes = (device: Device) => devices.pushesTo(device).filter((push) => push.kind === 'sos');
    for (const device of [cal, dee])
      expect(sosPushes(device)).toEqual([
        { kind: 'sos', title: sosTitle('Bea B'), body: sosPushBody('Home'), tag: `sos-${alert.id}`, url: `/?sos=${alert.id}` },
      ]);
    expect(sosPushes(bea)).toEqual([]);
    const sosPaths = [cal.path, dee.path];
    const urgencies = pushService.received.filter((push) => sosPaths.includes(push.path)).map((push) => push.headers.urgency);
    expect(urgencies).toContain('high');
    expect(urgencies.filter((u) => u === 'high')).toHaveLength(2);

    // Again within two minutes: the same alert, its talk time moved; nobody is pushed twice.
    pushService.received.length = 0;
    await new Promise((r) => setTimeout(r, 20));
    const again = await raise(bea.person, id);
    expect(again.status).toBe(200);
    const extended = (await again.json()) as SosAlert;
    expect(extended.id).toBe(alert.id);
    expect(extended.talkUntil).toBeGreaterThan(alert.talkUntil);
    await server.app.ctx.notifier.idle();
    expect(pushService.received).toEqual([]);
    expect((await openAlerts(cal.person)).map((a) => a.id)).toEqual([alert.id]);
  });

  it('refuses a raise from a non-member, on an unknown channel, and on a channel that is not an SOS channel', async () => {
    const bea = await someone('Bea');
    const out = await someone('Out');
    const id = await sosChannel('Refusals', [bea.person]);
    const outsider = await raise(out.person, id);
    expect(outsider.status).toBe(403);
    expect(await outsider.json()).toEqual({ message: SOS_NOT_MEMBER });
    const unknown = await raise(bea.person, 987654);
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({ message: SOS_NOT_MEMBER });
    const plain = await createChannel(owen, 'Plain');
    await addToChannel(owen, plain, bea.person);
    const notSos = await raise(bea.person, plain);
    expect(notSos.status).toBe(400);
    expect(await notSos.json()).toEqual({ message: SOS_NOT_SOS_CHANNEL });
    expect((await post(bea.person, '/api/sos', { channelId: 'x' })).status).toBe(400);
    expect((await post(bea.person, '/api/sos', { channelId: id, extra: 1 })).status).toBe(400);
  });

  it('the SOS takes the floor from a talker, no admin cuts in, a release does not end it, and resolving does', async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const id = await sosChannel('Walkie', [bea.person, cal.person]);
    const watcher = await viewing(owen, id);
    const beaSocket = await viewing(bea.person, id);
    voices.push(await joinVoiceCounted(server.database.db, owen, id));
    const floor = server.app.ctx.floor;
    // Owen (the channel admin) is talking when Bea's SOS comes; she is not even in the voice.
    watcher.send({ type: 'floor_request', channelId: id });
    await watcher.next(floorOf(id, owen.id));
    const alert = (await (await raise(bea.person, id)).json()) as SosAlert;
    const state = await watcher.next(floorOf(id, bea.person.id));
    expect(state).toMatchObject({ sos: true, ended: 'cut_in' });
    expect(state.expiresAt).toBe(alert.talkUntil);

    // The channel admin presses again: refused, the SOS is on the air.
    watcher.send({ type: 'floor_request', channelId: id });
    const refused = await watcher.next((m: FloorDenied) => m.type === 'floor_denied' && m.channelId === id);
    expect(refused).toMatchObject({ reason: 'busy', holder: { id: bea.person.id } });
    // Bea's own release changes nothing.
    beaSocket.send({ type: 'floor_release', channelId: id });
    await new Promise((r) => setTimeout(r, 300));
    expect(await floor.currentHolderId(id)).toBe(bea.person.id);

    watcher.clear();
    const resolved = await resolve(owen, alert.id);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ id: alert.id, resolvedBy: { id: owen.id, name: 'Owen O' } });
    await watcher.next(floorOf(id, null));
    expect(await floor.currentHolderId(id)).toBeNull();
    expect(await openAlerts(bea.person)).toEqual([]);
    const twice = await resolve(bea.person, alert.id);
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ message: SOS_ALREADY_RESOLVED });
  });

  it("a second person's SOS waits for the first to end, and is alerted at once", async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const id = await sosChannel('Queue', [bea.person, cal.person], 'walkie', 5);
    const watcher = await viewing(owen, id);
    const first = (await (await raise(bea.person, id)).json()) as SosAlert;
    await watcher.next(floorOf(id, bea.person.id));
    const secondResponse = await raise(cal.person, id);
    expect(secondResponse.status).toBe(201);
    const second = (await secondResponse.json()) as SosAlert;
    await watcher.next(alertMessage(second.id));
    // Cal's talk time starts when Bea's ends.
    expect(second.talkUntil).toBeGreaterThanOrEqual(first.talkUntil + 4_000);
    expect(await server.app.ctx.floor.currentHolderId(id)).toBe(bea.person.id);
    watcher.clear();
    expect((await resolve(bea.person, first.id)).status).toBe(200);
    const calOnAir = await watcher.next(floorOf(id, cal.person.id));
    expect(calOnAir.sos).toBe(true);
    const moved = await watcher.next(alertMessage(second.id, (a) => a.talkUntil === calOnAir.expiresAt));
    expect(moved.alert!.talkUntil).toBeLessThan(first.talkUntil + 5_500);
    // Unresolved, Cal's SOS leaves the air by itself at its time; the alert stays open.
    const ended = await watcher.next((m: FloorState) => floorOf(id, null)(m) && m.ended === 'expired', 10_000);
    expect(Date.now()).toBeGreaterThanOrEqual(calOnAir.expiresAt! - 50);
    expect(ended.holder).toBeNull();
    expect((await openAlerts(cal.person)).map((a) => a.id)).toContain(second.id);
    expect((await resolve(cal.person, second.id)).status).toBe(200);
  });

  it('only the sender locates, one update per 5 s, and not once resolved', async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const out = await someone('Out');
    const id = await sosChannel('Where', [bea.person, cal.person]);
    const calSocket = await devices.socket(cal.person);
    const alert = (await (await raise(bea.person, id)).json()) as SosAlert;
    const located = await locate(bea.person, alert.id);
    expect(located.status).toBe(200);
    expect(((await located.json()) as SosAlert).location).toMatchObject({ latitude: 48.85, longitude: 2.35, accuracy: 12 });
    await calSocket.next(alertMessage(alert.id, (a) => a.location?.latitude === 48.85));
    const flood = await locate(bea.person, alert.id, { latitude: 1, longitude: 1, accuracy: 1 });
    expect(flood.status).toBe(429);
    const byOther = await locate(cal.person, alert.id);
    expect(byOther.status).toBe(403);
    expect(await byOther.json()).toEqual({ message: SOS_ONLY_SENDER_LOCATES });
    const byOutsider = await locate(out.person, alert.id);
    expect(byOutsider.status).toBe(404);
    expect(await byOutsider.json()).toEqual({ message: SOS_ALERT_NOT_FOUND });
    expect((await locate(bea.person, alert.id, { latitude: 91, longitude: 0, accuracy: 1 })).status).toBe(400);
    expect((await resolve(bea.person, alert.id)).status).toBe(200);
    const closed = await locate(bea.person, alert.id);
    expect(closed.status).toBe(409);
    expect(await closed.json()).toEqual({ message: SOS_LOCATION_CLOSED });
  });

  it("members answer I'm on it once each; the sender and outsiders cannot", async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const out = await someone('Out');
    const id = await sosChannel('Acks', [bea.person, cal.person]);
    const beaSocket = await devices.socket(bea.person);
    const alert = (await (await raise(bea.person, id)).json()) as SosAlert;
    const first = await ack(cal.person, alert.id);
    expect(first.status).toBe(200);
    expect(((await first.json()) as SosAlert).acks).toMatchObject([{ user: { id: cal.person.id, name: 'Cal C' } }]);
    await beaSocket.next(alertMessage(alert.id, (a) => a.acks.length === 1));
    // Replayed: still one answer.
    const replay = (await (await ack(cal.person, alert.id)).json()) as SosAlert;
    expect(replay.acks).toHaveLength(1);
    expect((await ack(owen, alert.id)).status).toBe(200);
    expect((await openAlerts(bea.person))[0]!.acks.map((a) => a.user.id)).toEqual([cal.person.id, owen.id]);
    expect((await ack(bea.person, alert.id)).status).toBe(403);
    const outsider = await ack(out.person, alert.id);
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual({ message: SOS_ALERT_NOT_FOUND });
    expect((await ack(cal.person, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await ack(cal.person, 'not-a-uuid')).status).toBe(400);
    const plainMember = await resolve(cal.person, alert.id);
    expect(plainMember.status).toBe(403);
    expect(await plainMember.json()).toEqual({ message: SOS_ONLY_SENDER_OR_ADMIN_RESOLVES });
    expect((await resolve(out.person, alert.id)).status).toBe(404);
    expect((await resolve(bea.person, alert.id)).status).toBe(200);
  });

  it("another channel's alert is invisible, and a removed member no longer reads or receives one", async () => {
    const bea = await someone('Bea');
    const cal = await someone('Cal');
    const eve = await someone('Eve');
    const ours = await sosChannel('Ours', [bea.person, cal.person]);
    const theirs = await sosChannel('Theirs', [eve.person]);
    const theirAlert = (await (await raise(eve.person, theirs)).json()) as SosAlert;
    expect((await openAlerts(bea.person)).map((a) => a.id)).not.toContain(theirAlert.id);
    expect((await ack(bea.person, theirAlert.id)).status).toBe(404);
    expect((await locate(bea.person, theirAlert.id)).status).toBe(404);
    expect((await resolve(bea.person, theirAlert.id)).status).toBe(404);

    const ourAlert = (await (await raise(bea.person, ours)).json()) as SosAlert;
    expect((await openAlerts(cal.person)).map((a) => a.id)).toEqual([ourAlert.id]);
    const calSocket = await devices.socket(cal.person);
    expect((await owen.client.request(`/api/channels/${ours}/members/${cal.person.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await openAlerts(cal.person)).toEqual([]);
    expect((await ack(cal.person, ourAlert.id)).status).toBe(404);
    calSocket.clear();
    expect((await ack(owen, ourAlert.id)).status).toBe(200);
    await expect(calSocket.next(alertMessage(ourAlert.id), 1_000)).rejects.toThrow();
    await resolve(bea.person, ourAlert.id);
    await resolve(eve.person, theirAlert.id);
  });

  it('a flood of raises stops at the hourly ceiling of new alerts', async () => {
    const fay = await someone('Fay');
    const id = await sosChannel('Flood', [fay.person]);
    for (let i = 0; i < SOS_RAISES_PER_HOUR; i++) {
      const raised = await raise(fay.person, id);
      expect(raised.status).toBe(201);
      expect((await resolve(fay.person, ((await raised.json()) as SosAlert).id)).status).toBe(200);
    }
    expect((await raise(fay.person, id)).status).toBe(429);
  });

  it('deleting the channel or the account mid-SOS takes the alerts with it and frees the floor', async () => {
    const bea = await someone('Bea');
    const gus = await someone('Gus');
    const id = await sosChannel('Gone', [bea.person, gus.person]);
    const alert = (await (await raise(bea.person, id)).json()) as SosAlert;
    expect((await owen.client.request(`/api/channels/${id}`, { method: 'DELETE' })).status).toBe(200);
    const { db } = server.database;
    expect(await db.select().from(sosAlerts).where(eq(sosAlerts.id, alert.id))).toEqual([]);
    expect(await server.app.ctx.floor.currentHolderId(id)).toBeNull();
    expect((await ack(gus.person, alert.id)).status).toBe(404);

    const other = await sosChannel('Stays', [bea.person, gus.person]);
    const gusAlert = (await (await raise(gus.person, other)).json()) as SosAlert;
    expect((await gus.person.client.request('/api/account', { method: 'DELETE', json: { password: 'correct horse battery' } })).status).toBeLessThan(300);
    expect(await db.select().from(sosAlerts).where(eq(sosAlerts.id, gusAlert.id))).toEqual([]);
    expect(await openAlerts(bea.person)).toEqual([]);
    // Nobody is left to speak for it: the channel's air is free again, not at the SOS's end.
    await vi.waitFor(async () => expect(await server.app.ctx.floor.currentHolderId(other)).toBeNull(), {
      timeout: 5_000,
    });
  });
});
