import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelMembers, channels, pushDeliveries } from '../db/schema.js';
import { runHousekeeping } from '../housekeeping/housekeeping.js';
import { addToChannel, createChannel, signIn, signInOwner, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { keepAndAnnounce } from '../transmissions/keep-transmissions.js';
import { TransmissionRecording } from '../transmissions/transmission-recording.js';
import { PUSH_DELIVERY_KEEP_MS } from './push-deliveries.js';
import { LocalPushService } from './testing/local-push-service.js';
import { PushDevices, type Device } from '../testing/push-devices.js';
import { transmissionPushes } from './transmission-pushes.js';

/** A finished transmission of `seconds` of 20 ms frames, as a recorder makes it. */
function spoken(speakerId: string, seconds: number) {
  let now = Date.now();
  const recording = new TransmissionRecording(speakerId, { now: () => now });
  for (let i = 0; i < seconds * 50; i++) {
    recording.push(1, i * 960, Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(90, 0x11)]));
    now += 20;
  }
  return recording.finish()!;
}

const ALL_ON = { calls: true, pokes: true, transmissions: true, channelAdds: true };

describe.each(testDatabases())('pokes, channel adds and transmissions push on $name', (database) => {
  let server: TestServer;
  let pushService: LocalPushService;
  let devices: PushDevices;
  let owen: Person, ava: Person;
  let seq = 0;
  /** A new person with one device (page closed); their own address each time. */
  const someone = (first: string) => devices.device(`${first} ${first[0]}`, `${first.toLowerCase()}.${++seq}@example.com`);

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    server = await startTestServer(await database.open(), {}, { pushAgent: pushService.agent });
    devices = new PushDevices(pushService, () => server);
    owen = await signInOwner(server, 'Owen O', 'owen@example.com');
    ava = await signIn(server, 'Ava A', 'ava@example.com');
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

  const idle = () => server.app.ctx.notifier.idle();
  const put = (who: Person, path: string, json: unknown) => who.client.request(path, { method: 'PUT', json });
  const walkie = async (name: string, members: Person[]) => {
    const id = await createChannel(owen, name);
    for (const member of members) await addToChannel(owen, id, member);
    expect((await put(owen, `/api/channels/${id}/talk-mode`, { talkMode: 'walkie' })).status).toBe(200);
    return id;
  };
  /** Keeps a transmission as both recorders do when one ends, with the server's own pushes. */
  const say = async (speaker: Person, channelId: number, seconds: number, heardBy: string[] = []) => {
    const { ctx } = server.app;
    await keepAndAnnounce(
      {
        store: ctx.transmissions,
        channelEvents: ctx.channelEvents,
        log: server.app.log,
        kept: transmissionPushes(ctx.notifier, ctx.database.db),
      },
      channelId,
      spoken(speaker.id, seconds),
      heardBy,
    );
    await idle();
  };
  const transmissionsOf = async (who: Person, channelId: number) =>
    ((await (await who.client.request(`/api/channels/${channelId}/transmissions`)).json()) as { transmissions: { id: string }[] }).transmissions;

  it('tells one an admin added to a channel, on a device whose page is closed, not on one whose page is visible', async () => {
    const away = await someone('Ben');
    const here = await devices.device(away.person.name, away.person.email);
    await devices.page(here, true);
    const id = await createChannel(owen, 'Friends');
    await addToChannel(owen, id, away.person);
    await idle();
    expect(devices.pushesTo(away)).toEqual([
      { kind: 'channel-add', title: 'Owen O added you to Friends', body: '', tag: `channel-${id}`, url: `/?channel=${id}` },
    ]);
    expect(devices.pushesTo(here)).toEqual([]);
  });

  it('tells of a poke, unless pokes are off; a poker the member blocked cannot poke nor push', async () => {
    const ben = await someone('Ben');
    const mal = await signIn(server, 'Mal M', `mal.${++seq}@example.com`);
    const id = await createChannel(owen, 'Hikers');
    for (const member of [ava, ben.person, mal]) await addToChannel(owen, id, member);
    await idle();
    pushService.received.length = 0;

    expect((await ava.client.request(`/api/channels/${id}/members/${ben.person.id}/poke`, { method: 'POST' })).status).toBe(200);
    await idle();
    expect(devices.pushesTo(ben)).toEqual([
      { kind: 'poke', title: 'Ava A poked you in Hikers', body: '', tag: `poke-${id}`, url: `/?channel=${id}` },
    ]);

    expect((await ben.person.client.request(`/api/users/${mal.id}/block`, { method: 'POST' })).status).toBe(200);
    expect((await mal.client.request(`/api/channels/${id}/members/${ben.person.id}/poke`, { method: 'POST' })).status).toBe(403);
    expect((await put(ben.person, '/api/push/preferences', { ...ALL_ON, pokes: false })).status).toBe(200);
    const owenPoke = await owen.client.request(`/api/channels/${id}/members/${ben.person.id}/poke`, { method: 'POST' });
    expect(owenPoke.status).toBe(200);
    await idle();
    expect(devices.pushesTo(ben)).toHaveLength(1);
  });

  it('tells a member who did not hear a transmission live "<name> · <channel> · 0:04", then "3 new from <channel>"', async () => {
    const ben = await someone('Ben');
    const cal = await someone('Cal');
    const id = await walkie('Family', [ava, ben.person, cal.person]);
    await idle();
    pushService.received.length = 0;

    // Cal heard it live: nothing for Cal; Ben was away.
    await say(ava, id, 4, [cal.person.id]);
    const [first] = await transmissionsOf(ben.person, id);
    expect(devices.pushesTo(ben)).toEqual([
      { kind: 'transmission', title: 'Ava A · Family · 0:04', body: '', tag: `tx-${id}`, url: `/?channel=${id}&play=${first!.id}` },
    ]);
    expect(devices.pushesTo(cal)).toEqual([]);
    const push = pushService.received.find((p) => p.path === ben.path)!;
    expect(push.headers).toMatchObject({ urgency: 'normal' });

    await say(ava, id, 2, [cal.person.id]);
    await say(owen, id, 1, [cal.person.id]);
    expect(devices.pushesTo(ben).map((p) => [p.title, p.tag, p.url])).toEqual([
      ['Ava A · Family · 0:04', `tx-${id}`, `/?channel=${id}&play=${first!.id}`],
      ['2 new from Family', `tx-${id}`, `/?channel=${id}&play=${first!.id}`],
      ['3 new from Family', `tx-${id}`, `/?channel=${id}&play=${first!.id}`],
    ]);

    // Seen: the count starts again.
    expect((await ben.person.client.request(`/api/channels/${id}/transmissions/read`, { method: 'POST' })).status).toBe(200);
    await say(ava, id, 1);
    expect(devices.pushesTo(ben).at(-1)?.title).toBe('Ava A · Family · 0:01');
  });

  it('pushes no transmission where the member turned Notify me off, nor with transmissions off, nor across a block either way', async () => {
    const ben = await someone('Ben');
    const dee = await someone('Dee');
    const eve = await someone('Eve');
    const fay = await someone('Fay');
    const id = await walkie('Quiet', [ava, ben.person, dee.person, eve.person, fay.person]);
    const notify = `/api/channels/${id}/notify`;
    expect(await (await ben.person.client.request(notify)).json()).toEqual({ notify: true });
    expect(await (await put(ben.person, notify, { notify: false })).json()).toEqual({ notify: false });
    expect(await (await ben.person.client.request(notify)).json()).toEqual({ notify: false });
    expect((await put(dee.person, '/api/push/preferences', { ...ALL_ON, transmissions: false })).status).toBe(200);
    expect((await ava.client.request(`/api/users/${eve.person.id}/block`, { method: 'POST' })).status).toBe(200);
    await idle();
    pushService.received.length = 0;

    await say(ava, id, 2);
    // Fay, with everything on, is the one told.
    expect(devices.pushesTo(fay).map((p) => p.title)).toEqual(['Ava A · Quiet · 0:02']);
    for (const quiet of [ben, dee, eve]) expect(devices.pushesTo(quiet)).toEqual([]);
    // A non-member has no Notify me to read or set.
    expect((await owen.client.request(`/api/channels/${id}/notify`)).status).toBe(200);
    const outsider = await signIn(server, 'Out O', `out.${++seq}@example.com`);
    expect((await outsider.client.request(notify)).status).toBe(403);
    expect((await put(outsider, notify, { notify: false })).status).toBe(403);
    expect((await put(ben.person, notify, { notify: 'no' })).status).toBe(400);
  });

  it('in a one-to-one conversation, the speaker’s name stands for the channel’s', async () => {
    const ben: Device = await someone('Ben');
    const db = server.database.db;
    const [direct] = await db
      .insert(channels)
      .values({ name: '', createdBy: ava.id, kind: 'direct', directKey: randomUUID(), talkMode: 'walkie' })
      .returning();
    // Joined a moment before anyone speaks: a transmission that starts in the very millisecond of
    // joining does not count as missed, and this insert is that fast.
    const joinedAt = new Date(Date.now() - 1000);
    await db.insert(channelMembers).values([
      { channelId: direct!.id, userId: ava.id, joinedAt },
      { channelId: direct!.id, userId: ben.person.id, joinedAt },
    ]);
    await say(ava, direct!.id, 3);
    await say(ava, direct!.id, 2);
    expect(devices.pushesTo(ben).map((p) => [p.title, p.tag])).toEqual([
      ['Ava A · 0:03', `tx-${direct!.id}`],
      ['2 new from Ava A', `tx-${direct!.id}`],
    ]);
  });

  it('keeps each payload to what the notification shows: nothing of the audio, ids only in the tap target', async () => {
    const ben = await someone('Ben');
    const id = await walkie('Plain', [ava, ben.person]);
    await idle();
    pushService.received.length = 0;
    await say(ava, id, 1);
    const [payload] = devices.pushesTo(ben);
    expect(Object.keys(payload!).sort()).toEqual(['body', 'kind', 'tag', 'title', 'url']);
    expect(JSON.stringify(payload)).not.toContain(ava.id);
    expect(pushService.received.find((p) => p.path === ben.path)!.body.length).toBeLessThan(400);
  });

  it('forgets which device got which event a day later, at housekeeping', async () => {
    const db = server.database.db;
    const claims = async () => (await db.select().from(pushDeliveries)).length;
    expect(await claims()).toBeGreaterThan(0);
    await runHousekeeping(db);
    const kept = await claims();
    expect(kept).toBeGreaterThan(0);
    await runHousekeeping(db, new Date(Date.now() + PUSH_DELIVERY_KEEP_MS + 60_000));
    expect(await claims()).toBe(0);
  });
});
