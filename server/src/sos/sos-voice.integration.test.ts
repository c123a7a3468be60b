import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorState } from '../../../protocol/floor.js';
import type { SosAlert } from '../../../protocol/sos.js';
import type { TransmissionsResponse } from '../../../protocol/transmissions.js';
import { transmissions, usageSessions } from '../db/schema.js';
import { addToChannel, createChannel, signIn, signInOwner, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { joinVoiceCounted } from '../testing/voice-join.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import type { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';

/**
 * An SOS on the built-in SFU, through the real server (decision 050): the sender is let into the
 * voice over the free allowance, heard even when admin-muted, alone on the air of an open channel
 * for the SOS seconds (then everyone again, mutes kept), and what they said is kept and linked to
 * the alert whatever the channel keeps, until the alert is resolved.
 */
describe.each(testDatabases())('an SOS on the built-in SFU on $name', (database) => {
  let server: TestServer;
  let owen: Person;
  let bea: Person;
  let cal: Person;
  let dan: Person;
  let channelId: number;
  const voices: WeriftVoiceClient[] = [];
  const sockets: TestSocket[] = [];

  const request = (who: Person, path: string, method: string, json?: unknown) =>
    who.client.request(path, { method, ...(json === undefined ? {} : { json }) });
  const tokenStatus = async (who: Person) =>
    (await request(who, '/api/livekit-token', 'POST', { channelId, userId: who.id, userName: who.name })).status;
  const usageStartStatus = async (who: Person) =>
    (await request(who, '/api/usage/session/start', 'POST', { channelId })).status;

  /** How many of `from`'s packets `to` received so far. */
  const heard = (to: WeriftVoiceClient, from: WeriftVoiceClient) =>
    to.received.get(from.joined?.self.identity ?? '') ?? 0;
  /** `who` talks for `count` packets of 20 ms. */
  const talk = async (who: WeriftVoiceClient, count = 40) => {
    const packet = opusPacketFactory();
    for (let i = 0; i < count; i++) {
      who.sendRtp(packet(80, i));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /**
   * Whether `to` hears `from` now: `from` talks and the count moves. A talker who just lost the
   * right to be heard is faded out with a few silence frames first (the SFU's, after a mute or a
   * floor change): those go before the count starts.
   */
  const hears = async (to: WeriftVoiceClient, from: WeriftVoiceClient) => {
    await talk(from, 15);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = heard(to, from);
    await talk(from);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return heard(to, from) > before;
  };

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owen = await signInOwner(server, 'Owen O', 'owen@example.com');
    bea = await signIn(server, 'Bea B', 'bea@example.com');
    cal = await signIn(server, 'Cal C', 'cal@example.com');
    dan = await signIn(server, 'Dan D', 'dan@example.com');
    channelId = await createChannel(owen, 'Family');
    for (const member of [bea, cal, dan]) await addToChannel(owen, channelId, member);
    // An open SOS channel that keeps nothing.
    expect((await request(owen, `/api/channels/${channelId}/talk-mode`, 'PUT', { talkMode: 'open', keepTransmissions: false })).status).toBe(200);
    expect((await request(owen, `/api/channels/${channelId}/sos`, 'PUT', { sos: true, sosSeconds: 30 })).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(voices.map((voice) => voice.close()));
    await Promise.all(sockets.map((socket) => socket.close()));
    await server.close();
    await server.database.close();
  });

  it('lets the SOS sender into the voice over the free allowance, at every door, only while it is on', async () => {
    // Bea used far more than the free allowance.
    await server.database.db.insert(usageSessions).values({
      userId: bea.id,
      channelId,
      startedAt: new Date(Date.now() - 1000),
      endedAt: new Date(),
      participantMinutes: 50_000,
    });
    expect(await tokenStatus(bea)).toBe(429);
    expect(await usageStartStatus(bea)).toBe(429);
    const raised = await request(bea, '/api/sos', 'POST', { channelId });
    expect(raised.status).toBe(201);
    const alert = (await raised.json()) as SosAlert;
    expect(await tokenStatus(bea)).toBe(200);
    expect(await usageStartStatus(bea)).toBe(200);
    // The SFU's own door lets her in too (it asks the database at the join).
    const voice = await joinVoiceCounted(server.database.db, bea, channelId);
    voices.push(voice);
    expect(voice.closeCode).toBeUndefined();
    // Resolved, the allowance holds her back again; another member is not let over it by her SOS.
    expect((await request(bea, `/api/sos/${alert.id}/resolve`, 'POST')).status).toBe(200);
    expect(await tokenStatus(bea)).toBe(429);
    await voice.close();
    await server.database.db.delete(usageSessions).where(eq(usageSessions.userId, bea.id));
  });

  it('an admin-muted sender is heard alone on an open channel for the SOS, then everyone again with mutes kept, and the SOS audio is kept', async () => {
    const watcher = await TestSocket.open(owen.client);
    sockets.push(watcher);
    watcher.send({ type: 'join_channel', channelId, userId: owen.id });
    expect((await request(owen, `/api/channels/${channelId}/members/${bea.id}/mute`, 'POST')).status).toBe(200);
    const calVoice = await joinVoiceCounted(server.database.db, cal, channelId);
    const danVoice = await joinVoiceCounted(server.database.db, dan, channelId);
    voices.push(calVoice, danVoice);
    // Open channel: Dan is heard.
    expect(await hears(calVoice, danVoice)).toBe(true);

    // Muted Bea raises an SOS, then connects (as the app does): her voice is let through.
    const alert = (await (await request(bea, '/api/sos', 'POST', { channelId })).json()) as SosAlert;
    await watcher.next((m: FloorState) => m.type === 'floor_state' && m.holder?.id === bea.id && m.sos === true);
    const beaVoice = await joinVoiceCounted(server.database.db, bea, channelId);
    voices.push(beaVoice);
    expect(await hears(calVoice, beaVoice)).toBe(true);
    expect(await hears(calVoice, danVoice)).toBe(false);
    await talk(beaVoice, 60);

    const kept = watcher.next(
      (m: { type: string; alert?: SosAlert }) => m.type === 'sos_alert' && m.alert?.id === alert.id && m.alert.transmissions.length === 1,
    );
    expect((await request(owen, `/api/sos/${alert.id}/location`, 'PUT', { latitude: 1, longitude: 1, accuracy: 1 })).status).toBe(403);
    // Bea marks it resolved: the SOS floor ends, the open channel is back, her mute with it.
    const resolved = await request(bea, `/api/sos/${alert.id}/resolve`, 'POST');
    expect(resolved.status).toBe(200);
    await watcher.next((m: FloorState) => m.type === 'floor_state' && m.holder === null);
    expect(await hears(calVoice, danVoice)).toBe(true);
    expect(await hears(calVoice, beaVoice)).toBe(false);

    // What she said was kept though the channel keeps nothing, linked to the alert.
    const withAudio = await kept;
    const list = (await (await cal.client.request(`/api/channels/${channelId}/transmissions`)).json()) as TransmissionsResponse;
    expect(list.transmissions).toMatchObject([{ id: withAudio.alert!.transmissions[0]!.id, speaker: { id: bea.id }, sos: true }]);
    const audio = await cal.client.request(`/api/channels/${channelId}/transmissions/${list.transmissions[0]!.id}/audio`);
    expect(audio.status).toBe(200);
  });

  it('retention and switching keeping off spare the audio of an unresolved SOS, and only that', async () => {
    const { db } = server.database;
    const { ctx } = server.app;
    const raised = (await (await request(dan, '/api/sos', 'POST', { channelId })).json()) as SosAlert;
    const spoken = (startedAt: Date) => ({
      speakerId: dan.id,
      startedAt,
      durationMs: 1000,
      ogg: Buffer.from('OggS-test-audio'),
    });
    const sosAudio = await ctx.transmissions.keepTransmission(channelId, spoken(new Date()), []);
    expect(sosAudio?.sosAlertId).toBe(raised.id);
    // Far past the retention window, and keeping switched off: it stays while the alert is open.
    const later = new Date(Date.now() + (ctx.transmissions.retentionHours + 1) * 3_600_000);
    await ctx.transmissions.deleteExpired(later);
    expect((await request(owen, `/api/channels/${channelId}/talk-mode`, 'PUT', { talkMode: 'open', keepTransmissions: false })).status).toBe(200);
    const ids = async () => (await db.select({ id: transmissions.id }).from(transmissions).where(eq(transmissions.channelId, channelId))).map((row) => row.id);
    expect(await ids()).toContain(sosAudio!.id);
    expect((await request(dan, `/api/sos/${raised.id}/resolve`, 'POST')).status).toBe(200);
    await ctx.transmissions.deleteExpired(later);
    expect(await ids()).toEqual([]);
  });
});
