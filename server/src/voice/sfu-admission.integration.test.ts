import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VOICE_CLOSE_CODES } from '../../../protocol/voice-signalling.js';
import {
  addToChannel,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { usageSessions } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { opusPacketFactory } from './sfu/testing/sfu-test-server.js';
import { WeriftVoiceClient } from './sfu/testing/werift-voice-client.js';
import { voiceToken } from '../testing/voice-join.js';

/** Both instances sign voice tokens with the same secret, as a restarted server does. */
const ENV = { SESSION_SECRET: 'the-same-secret-before-and-after-a-restart-0123' };

/**
 * The built-in SFU's door asks the database at every join and resume. A token
 * (valid 10 minutes) of a member who was removed, for a channel that was deleted, or of a session
 * that was signed out, no longer opens it; an admin mute holds across a restart.
 */
describe.each(testDatabases())('the built-in SFU checks the database on $name', (database) => {
  let server: TestServer;
  let admin: Person;
  let bea: Person;
  const clients: WeriftVoiceClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(await database.open(), ENV);
    const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ada Admin', 'ada@example.com');
    bea = await signIn(server, 'Bea Member', 'bea@example.com');
    await setTier(superadmin, admin, 'admin');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const tokenFor = async (person: Person, channelId: number, via = server) => {
    const client = new TestClient(via.baseUrl);
    for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
    return (await voiceToken(person, channelId, client)).token;
  };
  const join = async (token: string, via = server) => {
    const url = `${via.baseUrl.replace('http', 'ws')}/rtc`;
    const client = await WeriftVoiceClient.join(url, token);
    clients.push(client);
    return client;
  };
  const closedWith = (client: WeriftVoiceClient) =>
    client
      .waitFor(() => client.closeCode !== undefined, 5000, 'close')
      .then(() => client.closeCode);

  it("refuses a removed member's old token, and a deleted channel's", async () => {
    const channelId = await createChannel(admin, 'Removal');
    await addToChannel(admin, channelId, bea);
    const token = await tokenFor(bea, channelId);
    expect((await join(token)).joined).toBeDefined();
    await admin.client.request(`/api/channels/${channelId}/members/${bea.id}`, {
      method: 'DELETE',
    });
    // The same token, still within its 10 minutes, does not get back in.
    expect(await closedWith(await join(token))).toBe(VOICE_CLOSE_CODES.kicked);

    const gone = await createChannel(admin, 'Deleted');
    const adminToken = await tokenFor(admin, gone);
    await admin.client.request(`/api/channels/${gone}`, { method: 'DELETE' });
    expect(await closedWith(await join(adminToken))).toBe(VOICE_CLOSE_CODES.kicked);
  });

  it('ends the voice of a session within a second of its logout, and refuses its tokens', async () => {
    const channelId = await createChannel(admin, 'Logout');
    const leaving = await signIn(server, 'Ada Admin', 'ada@example.com');
    const token = await tokenFor(leaving, channelId);
    const voice = await join(token);
    expect(voice.joined).toBeDefined();
    await leaving.client.request('/api/logout');
    await voice.waitFor(() => voice.closeCode !== undefined, 1000, 'voice closed at logout');
    expect(voice.closeCode).toBe(VOICE_CLOSE_CODES.unauthorized);
    expect(await closedWith(await join(token))).toBe(VOICE_CLOSE_CODES.unauthorized);
  });

  it('meters a connection whose client never started a usage session, from its join to its leave', async () => {
    const channelId = await createChannel(admin, 'Metered');
    await addToChannel(admin, channelId, bea);
    const rowsOf = () =>
      server.database.db.select().from(usageSessions).where(eq(usageSessions.channelId, channelId));
    const rowOnceIt = async (done: (row: typeof usageSessions.$inferSelect) => boolean) => {
      const until = Date.now() + 3000;
      for (;;) {
        const [row] = await rowsOf();
        if ((row && done(row)) || Date.now() > until) return row;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const voice = await join(await tokenFor(bea, channelId));
    expect(await rowOnceIt(() => true)).toMatchObject({
      userId: bea.id,
      voiceIdentity: voice.joined?.self.identity,
      endedAt: null,
    });
    await voice.close();
    expect(await rowOnceIt((row) => row.endedAt !== null)).toMatchObject({
      endReason: 'voice-left',
      participantMinutes: 1,
    });
  });

  it('does not forward a muted member after a restart, even with a token from before the mute', async () => {
    const channelId = await createChannel(admin, 'Restart');
    await addToChannel(admin, channelId, bea);
    const beaToken = await tokenFor(bea, channelId); // may publish: not muted yet
    const muted = await admin.client.request(`/api/channels/${channelId}/members/${bea.id}/mute`, {
      method: 'POST',
    });
    expect(muted.status).toBe(200);

    // The server restarts: whatever it kept in memory is gone; the database is not.
    await server.close();
    server = await startTestServer(server.database, ENV);
    const talker = await join(beaToken);
    const listener = await join(await tokenFor(admin, channelId));
    const beaIdentity = talker.joined?.self.identity ?? '';
    await talker.waitFor(() => talker.isPublishing, 10_000, 'publish slot');
    const packet = opusPacketFactory();
    const talk = async (count: number) => {
      for (let i = 0; i < count; i++) {
        talker.sendRtp(packet(80, i));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await talk(100);
    expect(listener.received.get(beaIdentity) ?? 0).toBe(0);
    expect(listener.messages.some((m) => m.type === 'publisher_muted' && m.muted)).toBe(true);

    // Unmuted through the API, the same connection is heard: the silence above was the mute.
    const admin2 = new TestClient(server.baseUrl);
    for (const [name, value] of admin.client.cookies) admin2.cookies.set(name, value);
    await admin2.request(`/api/channels/${channelId}/members/${bea.id}/mute`, { method: 'DELETE' });
    const talking = talk(150);
    await listener.waitFor(
      () => (listener.received.get(beaIdentity) ?? 0) > 0,
      5000,
      'audio after unmute',
    );
    await talking;
  });
});

/**
 * BILLING=off (a family server): minutes are still recorded, but nobody is ever held back by the
 * allowance — at the token endpoint or at the built-in SFU's door.
 */
describe('the built-in SFU with BILLING=off', () => {
  it('gives a user far over the allowance a token and carries their audio', async () => {
    const [database] = testDatabases();
    const server = await startTestServer(await database!.open(), { ...ENV, BILLING: 'off' });
    const clients: WeriftVoiceClient[] = [];
    try {
      const admin = await signInOwner(server, 'Sue Super', 'sue@example.com');
      const heavy = await signIn(server, 'Hana Heavy', 'hana@example.com');
      const channelId = await createChannel(admin, 'Family');
      await addToChannel(admin, channelId, heavy);
      await server.database.db.insert(usageSessions).values({
        userId: heavy.id,
        channelId,
        startedAt: new Date(Date.now() - 1000),
        endedAt: new Date(),
        participantMinutes: 50_000,
      });
      const tokenOf = async (person: Person) => (await voiceToken(person, channelId)).token;
      const url = `${server.baseUrl.replace('http', 'ws')}/rtc`;
      const listener = await WeriftVoiceClient.join(url, await tokenOf(admin));
      clients.push(listener);
      const talker = await WeriftVoiceClient.join(url, await tokenOf(heavy));
      clients.push(talker);
      expect(talker.closeCode).toBeUndefined();
      await talker.waitFor(() => talker.isPublishing, 10_000, 'publish slot');
      const identity = talker.joined?.self.identity ?? '';
      const packet = opusPacketFactory();
      for (let i = 0; i < 100 && (listener.received.get(identity) ?? 0) === 0; i++) {
        talker.sendRtp(packet(80, i));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await listener.waitFor(() => (listener.received.get(identity) ?? 0) > 0, 5000, 'audio');
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
      await server.database.close();
    }
  });
});
