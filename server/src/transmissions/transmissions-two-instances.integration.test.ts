import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorState } from '../../../protocol/floor.js';
import type { TransmissionsResponse } from '../../../protocol/transmissions.js';
import { claimServer } from '../testing/owner.js';
import { addToChannel, createChannel, signIn, type Person } from '../testing/people.js';
import type { TestServer } from '../testing/test-server.js';
import { startTwoInstances, type TwoInstances } from '../testing/two-instances.js';
import { TestSocket } from '../testing/test-socket.js';
import { joinVoice } from '../testing/voice-join.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import { testAudioStores } from '../testing/test-audio-stores.js';

const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * Two instances on one PostgreSQL database, each with its own data folder: Ava talks in a
 * walkie-talkie channel through instance A's built-in SFU, which records her; Ben, signed in on
 * instance B, sees it missed and plays it from B. For each audio store (S3 when the test server is
 * there). Runs when TEST_DATABASE_URL is set.
 */
describe.runIf(databaseUrl).each(testAudioStores())('kept voice across two instances, audio in $name', (store) => {
  let a: TestServer;
  let b: TestServer;
  let instances: TwoInstances | undefined;
  const voices: WeriftVoiceClient[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    // One store for both (the same bucket and prefix), as a deployment configures its instances.
    instances = await startTwoInstances({ databaseUrl: databaseUrl!, label: 'kept', env: store.env() });
    ({ a, b } = instances);
  });

  afterAll(async () => {
    await Promise.all(voices.map((voice) => voice.close()));
    await Promise.all(sockets.map((socket) => socket.close()));
    await instances?.close();
  });

  it('a transmission recorded on instance A plays from instance B', async () => {
    const owner = await signIn(a, 'Olive Owner', 'olive@example.com');
    // Instance B started last: its setup code replaced A's.
    await claimServer(b, owner.client);
    const ava = await signIn(a, 'Ava Talker', 'ava@example.com');
    const ben = await signIn(b, 'Ben Away', 'ben@example.com');
    const channelId = await createChannel(owner, 'Radio');
    for (const member of [ava, ben]) await addToChannel(owner, channelId, member);
    const walkie = await owner.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie' },
    });
    expect(walkie.status).toBe(200);

    // Ava talks and Olive listens, both in instance A's voice room; Ben is not there.
    const inVoice = async (who: Person) => {
      const voice = await joinVoice(who, channelId);
      voices.push(voice);
      await voice.waitFor(() => voice.isPublishing, 10_000, `${who.name} publishes`);
      const socket = await TestSocket.open(who.client);
      socket.send({ type: 'join_channel', channelId, userId: who.id });
      sockets.push(socket);
      return { voice, socket };
    };
    const listener = await inVoice(owner);
    const talker = await inVoice(ava);
    const holderIs = (holderId: string | null) => (m: FloorState) =>
      m.type === 'floor_state' && m.channelId === channelId && (m.holder?.id ?? null) === holderId;
    await expect
      .poll(
        async () => {
          talker.socket.send({ type: 'floor_request', channelId });
          return listener.socket.next<FloorState>(holderIs(ava.id), 500).then(
            () => true,
            () => false,
          );
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const next = opusPacketFactory(0x2000);
    for (let i = 0; i < 50; i++) {
      talker.voice.sendRtp(next(60));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    talker.socket.send({ type: 'floor_release', channelId });
    await listener.socket.next<FloorState>(holderIs(null));

    const listOnB = async () => {
      const response = await ben.client.request(`/api/channels/${channelId}/transmissions`);
      expect(response.status).toBe(200);
      return (await response.json()) as TransmissionsResponse;
    };
    await expect.poll(async () => (await listOnB()).missed, { timeout: 10_000 }).toBe(1);
    const [said] = (await listOnB()).transmissions;
    expect(said!.speaker.id).toBe(ava.id);

    const onB = await ben.client.request(`/api/channels/${channelId}/transmissions/${said!.id}/audio`);
    expect(onB.status).toBe(200);
    expect(onB.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(onB.headers.get('cache-control')).toBe('private, no-store');
    const audio = Buffer.from(await onB.arrayBuffer());
    expect(Number(onB.headers.get('content-length'))).toBe(audio.length);
    expect(audio.subarray(0, 4).toString('latin1')).toBe('OggS');
    // The very bytes instance A recorded (and serves its own members).
    const onA = await owner.client.request(`/api/channels/${channelId}/transmissions/${said!.id}/audio`);
    expect(Buffer.from(await onA.arrayBuffer())).toEqual(audio);
    expect(audio.length).toBeGreaterThan(50 * 60);
  });
});
