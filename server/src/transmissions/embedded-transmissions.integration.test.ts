import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FloorState } from '../../../protocol/floor.js';
import type { TransmissionsResponse } from '../../../protocol/transmissions.js';
import {
  addToChannel,
  createChannel,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { FLOOR_PAUSE_MS } from '../floor/floor-store.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import { joinVoiceCounted } from '../testing/voice-join.js';
import { LocalPushService } from '../push/testing/local-push-service.js';
import { PushDevices, type Device } from '../testing/push-devices.js';

/**
 * Walkie-talkie recording with the built-in SFU, through the real server: a press takes the floor
 * (the floor service tells the SFU), the SFU's tap hands the recorder what it forwards, a release
 * ends the transmission, and members see it kept: the holder's audio only, missed by whoever was
 * not in the voice room.
 */
describe.each(testDatabases())('built-in SFU transmissions on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let ava: Person;
  let ben: Person;
  let cal: Person;
  let channelId: number;
  let pushService: LocalPushService;
  let calsPhone: Device;
  const voices = new Map<string, WeriftVoiceClient>();
  const sockets = new Map<string, TestSocket>();

  /** Joins the channel's voice as the app does, and its `/ws` channel to press the floor. */
  const connect = async (who: Person) => {
    voices.set(who.id, await joinVoiceCounted(server.database.db, who, channelId));
    const socket = await TestSocket.open(who.client);
    socket.send({ type: 'join_channel', channelId, userId: who.id });
    sockets.set(who.id, socket);
  };

  const holderIs = (holderId: string | null) => (m: FloorState) =>
    m.type === 'floor_state' && m.channelId === channelId && (m.holder?.id ?? null) === holderId;

  /** Both talk the whole time (the fill byte says whose packet it is); `who` holds the floor meanwhile. */
  const transmit = async (who: Person) => {
    const watcher = sockets.get(owner.id)!;
    sockets.get(who.id)!.send({ type: 'floor_request', channelId });
    await watcher.next<FloorState>(holderIs(who.id));
    const talkers = [ava, ben].map((person, index) => ({
      voice: voices.get(person.id)!,
      next: opusPacketFactory(0x1000 + index),
      fill: index + 1,
    }));
    for (let i = 0; i < 50; i++) {
      for (const { voice, next, fill } of talkers) {
        const packet = next(40);
        packet.payload.fill(fill, 1);
        voice.sendRtp(packet);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    sockets.get(who.id)!.send({ type: 'floor_release', channelId });
    await watcher.next<FloorState>(holderIs(null));
  };

  const listOf = async (who: Person) =>
    (await (
      await who.client.request(`/api/channels/${channelId}/transmissions`)
    ).json()) as TransmissionsResponse;

  const keptCount = async (count: number) => {
    for (let tries = 0; (await listOf(owner)).transmissions.length < count; tries++) {
      if (tries > 100) throw new Error(`fewer than ${count} transmissions kept`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    server = await startTestServer(await database.open(), {}, { pushAgent: pushService.agent });
    owner = await signInOwner(server, 'Olive Owner', 'olive.owner@example.com');
    ava = await signIn(server, 'Ava Talker', 'ava.talker@example.com');
    ben = await signIn(server, 'Ben Talker', 'ben.talker@example.com');
    cal = await signIn(server, 'Cal Away', 'cal.away@example.com');
    // Cal's phone has notifications on, and Chirp closed.
    calsPhone = await new PushDevices(pushService, () => server).device(cal.name, cal.email);
    channelId = await createChannel(owner, 'Radio');
    for (const member of [ava, ben, cal]) await addToChannel(owner, channelId, member);
    const walkie = await owner.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie' },
    });
    expect(walkie.status).toBe(200);
    for (const who of [owner, ava, ben]) await connect(who);
  });
  afterAll(async () => {
    await Promise.all([...voices.values()].map((voice) => voice.close()));
    await Promise.all([...sockets.values()].map((socket) => socket.close()));
    await server.close();
    await server.database.close();
    await pushService.close();
  });

  it('keeps each hold as one transmission of the holder’s audio, missed only by who was away', async () => {
    await transmit(ava);
    await keptCount(1);
    // The floor's short pause before the next hold.
    await new Promise((resolve) => setTimeout(resolve, FLOOR_PAUSE_MS + 50));
    await transmit(ben);
    await keptCount(2);

    const forCal = await listOf(cal);
    expect(forCal.transmissions.map((t) => [t.speaker.id, t.missed])).toEqual([
      [ava.id, true],
      [ben.id, true],
    ]);
    for (const t of forCal.transmissions) {
      // Each held the floor for 50 packets of 20 ms; the first and last may fall outside the hold.
      expect(t.durationMs).toBeGreaterThanOrEqual(300);
      expect(t.durationMs).toBeLessThan(2_000);
    }
    // Everyone else in the voice room heard them live.
    expect((await listOf(ben)).transmissions.map((t) => t.missed)).toEqual([false, false]);
    expect((await listOf(owner)).missed).toBe(0);

    // The audio is the holder's alone, though both talked the whole time.
    const fills = [];
    for (const t of forCal.transmissions) {
      const audio = await cal.client.request(
        `/api/channels/${channelId}/transmissions/${t.id}/audio`,
      );
      expect(audio.status).toBe(200);
      const ogg = Buffer.from(await audio.arrayBuffer());
      expect(ogg.subarray(0, 4).toString('latin1')).toBe('OggS');
      fills.push(new Set(audioFills(ogg)));
    }
    expect(fills).toEqual([new Set([1]), new Set([2])]);

    // Cal, away, was told on the phone: one notification per conversation, the second counting both.
    const devices = new PushDevices(pushService, () => server);
    const told = () => devices.pushesTo(calsPhone).filter((p) => p.kind === 'transmission');
    await vi.waitFor(() => expect(told()).toHaveLength(2), { timeout: 15_000 });
    expect(told().map((p) => [p.kind, p.title.replace(/\d:\d\d$/, 'm:ss'), p.tag, p.url])).toEqual([
      ['transmission', 'Ava Talker · Radio · m:ss', `tx-${channelId}`, `/?channel=${channelId}&play=${forCal.transmissions[0]!.id}`],
      ['transmission', '2 new from Radio', `tx-${channelId}`, `/?channel=${channelId}&play=${forCal.transmissions[0]!.id}`],
    ]);
  });
});

/** The second byte of each audio packet of an Ogg file (packets here are < 255 bytes). */
function audioFills(file: Buffer): number[] {
  const fills: number[] = [];
  for (let offset = 0, page = 0; offset < file.length; page++) {
    const segments = file[offset + 26]!;
    let at = offset + 27 + segments;
    for (const size of file.subarray(offset + 27, offset + 27 + segments)) {
      // Gaps are filled with a silence frame (0xf8 0xff 0xfe): only real packets are counted.
      if (page >= 2 && file[at + 1] !== 0xff) fills.push(file[at + 1]!);
      at += size;
    }
    offset = at;
  }
  return fills;
}
