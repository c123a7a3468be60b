import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelActivityResponseSchema, type ChannelActivity } from '../../../protocol/channels.js';
import { TestClient } from '../testing/http-client.js';
import {
  addToChannel,
  createChannel,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { TransmissionRecording } from '../transmissions/transmission-recording.js';

/** A finished transmission of `seconds` of 20 ms frames, as the recorder makes it. */
function spoken(speakerId: string, seconds: number) {
  let now = Date.now();
  const recording = new TransmissionRecording(speakerId, { now: () => now });
  for (let i = 0; i < seconds * 50; i++) {
    recording.push(1, i * 960, Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(90, 0x11)]));
    now += 20;
  }
  return recording.finish()!;
}

const activityOf = async (who: Person): Promise<ChannelActivity[]> => {
  const response = await who.client.request('/api/channels/activity');
  expect(response.status).toBe(200);
  return channelActivityResponseSchema.parse(await response.json());
};

/** `GET /api/channels/activity` through the real server: the Channels menu's "2 missed" and "1 online". */
describe.each(testDatabases())('channel activity on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let ava: Person;
  let ben: Person;
  let mallory: Person;
  let radio: number;
  let lounge: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await signInOwner(server, 'Olive Owner', 'olive.activity@example.com');
    ava = await signIn(server, 'Ava Talker', 'ava.activity@example.com');
    ben = await signIn(server, 'Ben Away', 'ben.activity@example.com');
    mallory = await signIn(server, 'Mallory Outsider', 'mallory.activity@example.com');
    radio = await createChannel(owner, 'Radio');
    for (const member of [ava, ben]) await addToChannel(owner, radio, member);
    const walkie = await owner.client.request(`/api/channels/${radio}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie' },
    });
    expect(walkie.status).toBe(200);
    lounge = await createChannel(owner, 'Lounge');
    await addToChannel(owner, lounge, ben);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it("counts each member's missed transmissions per channel, until they open the list", async () => {
    for (const seconds of [1, 2]) {
      expect(await server.app.ctx.transmissions.keep(radio, spoken(ava.id, seconds), [])).toBe(
        true,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await activityOf(ben)).toEqual(
      expect.arrayContaining([
        { channelId: radio, missed: 2, online: 0 },
        { channelId: lounge, missed: 0, online: 0 },
      ]),
    );
    expect(await activityOf(ben)).toHaveLength(2);
    // Nobody misses what they said.
    expect(await activityOf(ava)).toEqual([{ channelId: radio, missed: 0, online: 0 }]);

    const read = await ben.client.request(`/api/channels/${radio}/transmissions/read`, {
      method: 'POST',
    });
    expect(read.status).toBe(200);
    expect((await activityOf(ben)).find((a) => a.channelId === radio)?.missed).toBe(0);
  });

  it('counts the other members who hear the channel now, not oneself', async () => {
    const avaSocket = await TestSocket.open(ava.client);
    const benSocket = await TestSocket.open(ben.client);
    try {
      // Ava hears Radio; Ben is connected but in no channel yet.
      avaSocket.send({ type: 'join_channel', channelId: radio });
      await expect
        .poll(async () => (await activityOf(ben)).find((a) => a.channelId === radio)?.online)
        .toBe(1);
      expect((await activityOf(ben)).find((a) => a.channelId === lounge)?.online).toBe(0);
      expect(await activityOf(ava)).toEqual([{ channelId: radio, missed: 0, online: 0 }]);

      // Ben joins too: Ava now sees him there.
      benSocket.send({ type: 'join_channel', channelId: radio });
      await expect.poll(async () => (await activityOf(ava))[0]?.online).toBe(1);

      // Ava switches her ear off (idle, or on a call): she no longer counts.
      avaSocket.send({ type: 'join_channel', channelId: radio, listening: false });
      await expect
        .poll(async () => (await activityOf(ben)).find((a) => a.channelId === radio)?.online)
        .toBe(0);
    } finally {
      await avaSocket.close();
      await benSocket.close();
    }
  });

  it('tells nobody about channels they are not in, and nothing when signed out', async () => {
    expect(await activityOf(mallory)).toEqual([]);
    const signedOut = await new TestClient(server.baseUrl).request('/api/channels/activity');
    expect(signedOut.status).toBe(401);
  });
});
