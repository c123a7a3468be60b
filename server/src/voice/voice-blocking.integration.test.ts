import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addToChannel,
  createChannel,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { opusPacketFactory } from './sfu/testing/sfu-test-server.js';
import type { WeriftVoiceClient } from './sfu/testing/werift-voice-client.js';
import { joinVoice } from '../testing/voice-join.js';

/**
 * Blocking on the built-in SFU (DESIGN §3): whatever the clients do, the server never carries the
 * audio of two users with a block between them to each other, both ways — from the join (the
 * admission's blocks) and at once when a block is made or removed — while everyone else hears both.
 */
describe.each(testDatabases())('blocking in voice on the built-in SFU on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let bea: Person;
  let cal: Person;
  let channelId: number;
  const clients: WeriftVoiceClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await signInOwner(server, 'Olive Owner', 'olive@example.com');
    bea = await signIn(server, 'Bea Blocker', 'bea@example.com');
    cal = await signIn(server, 'Cal Blocked', 'cal@example.com');
    channelId = await createChannel(owner, 'Voices');
    await addToChannel(owner, channelId, bea);
    await addToChannel(owner, channelId, cal);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const connect = async (who: Person) => {
    const client = await joinVoice(who, channelId);
    clients.push(client);
    expect(client.joined).toBeDefined();
    await client.waitFor(() => client.isPublishing, 10_000, `${who.name} publishing`);
    return client;
  };
  const setBlock = async (who: Person, target: Person, blocked: boolean) => {
    const response = await who.client.request(`/api/users/${target.id}/block`, {
      method: blocked ? 'POST' : 'DELETE',
    });
    expect(response.status).toBe(200);
  };
  const identity = (client: WeriftVoiceClient) => client.joined?.self.identity ?? '';
  const heard = (listener: WeriftVoiceClient, talker: WeriftVoiceClient) =>
    listener.received.get(identity(talker)) ?? 0;

  /**
   * The talker speaks until `witness` (who may hear them) has heard 50 more packets; answers how
   * many more each listener got meanwhile.
   */
  const talkUntilHeard = async (
    talker: WeriftVoiceClient,
    witness: WeriftVoiceClient,
    listeners: WeriftVoiceClient[],
  ) => {
    const before = listeners.map((l) => heard(l, talker));
    const target = heard(witness, talker) + 50;
    const packet = opusPacketFactory();
    for (let i = 0; heard(witness, talker) < target; i++) {
      if (i > 1_000) throw new Error('the witness never heard the talker');
      talker.sendRtp(packet(80, i));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The last packets in flight reach everyone they are going to.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return listeners.map((l, i) => heard(l, talker) - before[i]!);
  };

  it('a block made before the join: neither hears the other, both ways; the others hear both', async () => {
    await setBlock(bea, cal, true);
    const o = await connect(owner);
    const b = await connect(bea);
    const c = await connect(cal);
    const [beaHeardCal, ownerHeardCal] = await talkUntilHeard(c, o, [b, o]);
    expect(ownerHeardCal).toBeGreaterThanOrEqual(50);
    expect(beaHeardCal).toBe(0);
    const [calHeardBea, ownerHeardBea] = await talkUntilHeard(b, o, [c, o]);
    expect(ownerHeardBea).toBeGreaterThanOrEqual(50);
    expect(calHeardBea).toBe(0);
    // They still hear the owner.
    const [beaHeardOwner, calHeardOwner] = await talkUntilHeard(o, b, [b, c]);
    expect(beaHeardOwner).toBeGreaterThanOrEqual(50);
    expect(calHeardOwner).toBeGreaterThanOrEqual(40);
    await setBlock(bea, cal, false);
  });

  it('a block made or removed during the call applies at once', async () => {
    const o = await connect(owner);
    const b = await connect(bea);
    const c = await connect(cal);
    // No block: Bea hears Cal.
    await talkUntilHeard(c, b, [b]);

    await setBlock(bea, cal, true);
    const [beaHeardCal, ownerHeardCal] = await talkUntilHeard(c, o, [b, o]);
    expect(ownerHeardCal).toBeGreaterThanOrEqual(50);
    expect(beaHeardCal).toBe(0);
    const [calHeardBea] = await talkUntilHeard(b, o, [c]);
    expect(calHeardBea).toBe(0);

    // Cal blocks Bea too; Bea's unblock alone changes nothing.
    await setBlock(cal, bea, true);
    await setBlock(bea, cal, false);
    expect((await talkUntilHeard(c, o, [b]))[0]).toBe(0);
    await setBlock(cal, bea, false);
    const [heardAgain] = await talkUntilHeard(c, b, [b]);
    expect(heardAgain).toBeGreaterThanOrEqual(50);
  });
});
