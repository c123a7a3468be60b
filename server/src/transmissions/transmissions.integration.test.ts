import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransmissionsResponse } from '../../../protocol/transmissions.js';
import {
  addToChannel,
  createChannel as createPlainChannel,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { storedAudioOf, testStorages } from '../testing/test-audio-stores.js';
import { TransmissionRecording } from './transmission-recording.js';

const person = (server: TestServer, name: string) =>
  signIn(server, name, `${name.toLowerCase().replace(/\s/g, '.')}@example.com`);

/** A finished transmission of `seconds` of 20 ms frames, as the SFU's recorder makes it. */
function spoken(speakerId: string, seconds: number, startedAt = new Date(), fill = 0x11) {
  // The recorder's clock runs along with the packets, 20 ms apart.
  let now = startedAt.getTime();
  const recording = new TransmissionRecording(speakerId, { now: () => now });
  for (let i = 0; i < seconds * 50; i++) {
    recording.push(1, i * 960, Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(90, fill)]));
    now += 20;
  }
  return recording.finish()!;
}

const listOf = async (who: Person, channelId: number) => {
  const response = await who.client.request(`/api/channels/${channelId}/transmissions`);
  expect(response.status).toBe(200);
  return (await response.json()) as TransmissionsResponse;
};

/**
 * Through the real server: kept transmissions, "N missed", the audio for members
 * only, and every way they are deleted (keeping off, retention, size limit, channel, account).
 */
describe.each(testStorages())('kept walkie-talkie transmissions on $name', ({ database, store: audioStore }) => {
  let server: TestServer;
  let owner: Person;
  let ava: Person;
  let ben: Person;
  let mallory: Person;
  let channelId: number;

  const createChannel = async (name: string, members: Person[]) => {
    const id = await createPlainChannel(owner, name);
    for (const member of members) await addToChannel(owner, id, member);
    const walkie = await owner.client.request(`/api/channels/${id}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie' },
    });
    expect(await walkie.json()).toEqual({
      talkMode: 'walkie',
      maxTransmissionSeconds: 60,
      keepTransmissions: true,
    });
    return id;
  };
  const store = () => server.app.ctx.transmissions;
  const audioIn = (id: number) => storedAudioOf(server, id);

  beforeAll(async () => {
    server = await startTestServer(await database.open(), audioStore.env());
    owner = await signInOwner(server, 'Olive Owner', 'olive.owner@example.com');
    ava = await person(server, 'Ava Talker');
    ben = await person(server, 'Ben Away');
    mallory = await person(server, 'Mallory Outsider');
    channelId = await createChannel('Radio', [ava, ben]);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('keeps transmissions in order, counts what a member missed, and serves members the Ogg Opus', async () => {
    const said = [];
    for (const n of [1, 2, 3]) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      said.push(spoken(ava.id, n, new Date(), n));
      expect(await store().keep(channelId, said.at(-1)!, [])).toBe(true);
    }

    const forBen = await listOf(ben, channelId);
    expect(forBen.missed).toBe(3);
    expect(forBen.retentionHours).toBe(24);
    expect(forBen.transmissions.map((t) => [t.speaker, t.durationMs, t.missed])).toEqual(
      [1000, 2000, 3000].map((ms) => [{ id: ava.id, name: 'Ava Talker' }, ms, true]),
    );
    expect(forBen.transmissions.map((t) => Date.parse(t.startedAt))).toEqual(
      said.map((t) => t.startedAt.getTime()),
    );
    // Nobody misses what they said themselves.
    expect((await listOf(ava, channelId)).missed).toBe(0);

    const second = forBen.transmissions[1]!;
    const audio = await ben.client.request(`/api/channels/${channelId}/transmissions/${second.id}/audio`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(audio.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await audio.arrayBuffer())).toEqual(said[1]!.ogg);
  });

  it('lets only current members list or fetch, and only within the channel', async () => {
    const { transmissions } = await listOf(ben, channelId);
    const id = transmissions[0]!.id;
    const audioPath = `/api/channels/${channelId}/transmissions/${id}/audio`;
    expect((await mallory.client.request(`/api/channels/${channelId}/transmissions`)).status).toBe(403);
    expect((await mallory.client.request(audioPath)).status).toBe(403);
    expect(
      (await mallory.client.request(`/api/channels/${channelId}/transmissions/read`, { method: 'POST' }))
        .status,
    ).toBe(403);
    // Signed out: nothing.
    expect((await new TestClient(server.baseUrl).request(audioPath)).status).toBe(401);

    // Mallory's own channel cannot be used to reach Radio's audio by its id.
    const other = await createChannel('Other', [mallory]);
    expect((await mallory.client.request(`/api/channels/${other}/transmissions/${id}/audio`)).status).toBe(404);
    // Ids are uuids; anything else is refused before it reaches the disk.
    const traversal = `/api/channels/${channelId}/transmissions/..%2F..%2Fsession-secret/audio`;
    expect((await ben.client.request(traversal)).status).toBe(400);
  });

  it('does not count what a member heard live, and "seen" starts the count again', async () => {
    expect(await store().keep(channelId, spoken(ava.id, 1), [ben.id])).toBe(true);
    const listed = await listOf(ben, channelId);
    expect(listed.transmissions.at(-1)!.missed).toBe(false);
    expect(listed.missed).toBe(3);

    const seen = await ben.client.request(`/api/channels/${channelId}/transmissions/read`, {
      method: 'POST',
    });
    expect(seen.status).toBe(200);
    expect((await listOf(ben, channelId)).missed).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store().keep(channelId, spoken(ava.id, 1), [])).toBe(true);
    expect((await listOf(ben, channelId)).missed).toBe(1);
  });

  it('a block either way hides the transmission from the list and its audio', async () => {
    const cal = await person(server, 'Cal Blocked');
    await addToChannel(owner, channelId, cal);
    expect(await store().keep(channelId, spoken(cal.id, 1), [])).toBe(true);
    expect(await store().keep(channelId, spoken(ben.id, 1), [])).toBe(true);
    const idOf = async (speaker: Person) =>
      (await listOf(owner, channelId)).transmissions.filter((t) => t.speaker.id === speaker.id).at(-1)!
        .id;
    const calSaid = await idOf(cal);
    const benSaid = await idOf(ben);
    const audio = (who: Person, id: string) =>
      who.client.request(`/api/channels/${channelId}/transmissions/${id}/audio`);
    expect((await audio(ben, calSaid)).status).toBe(200);
    expect((await ben.client.request(`/api/users/${cal.id}/block`, { method: 'POST' })).status).toBe(200);
    // Ben blocked Cal: Ben gets nothing of Cal's, and Cal nothing of Ben's.
    expect((await listOf(ben, channelId)).transmissions.some((t) => t.speaker.id === cal.id)).toBe(false);
    expect((await listOf(cal, channelId)).transmissions.some((t) => t.speaker.id === ben.id)).toBe(false);
    expect((await audio(ben, calSaid)).status).toBe(404);
    expect((await audio(cal, benSaid)).status).toBe(404);
    // Others are not affected.
    expect((await audio(owner, calSaid)).status).toBe(200);
    expect((await audio(cal, calSaid)).status).toBe(200);
    expect((await ben.client.request(`/api/users/${cal.id}/block`, { method: 'DELETE' })).status).toBe(200);
    expect((await audio(ben, calSaid)).status).toBe(200);
  });

  it('forgets what is past the retention window, on the list at once and on disk at housekeeping', async () => {
    const old = spoken(ava.id, 1, new Date(Date.now() - 25 * 3_600_000));
    expect(await store().keep(channelId, old, [])).toBe(true);
    const before = await audioIn(channelId);
    const listed = await listOf(ben, channelId);
    expect(listed.transmissions.some((t) => Date.parse(t.startedAt) === old.startedAt.getTime())).toBe(false);

    expect(await store().deleteExpired()).toEqual([channelId]);
    const after = await audioIn(channelId);
    expect(after).toHaveLength(before.length - 1);
    expect((await listOf(ben, channelId)).transmissions).toHaveLength(listed.transmissions.length);
  });

  it('deletes what was kept when the admin turns keeping off, and keeps nothing more', async () => {
    expect((await audioIn(channelId)).length).toBeGreaterThan(0);
    const off = await owner.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', keepTransmissions: false },
    });
    expect(((await off.json()) as { keepTransmissions: boolean }).keepTransmissions).toBe(false);
    expect((await listOf(ben, channelId)).transmissions).toEqual([]);
    expect(await audioIn(channelId)).toEqual([]);
    expect(await store().keep(channelId, spoken(ava.id, 1), [])).toBe(false);
    // A member may not switch it back on.
    const refused = await ava.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', keepTransmissions: true },
    });
    expect(refused.status).toBe(403);
  });

  it('takes a channel’s audio with it when the channel is deleted', async () => {
    const doomed = await createChannel('Doomed', [ava]);
    expect(await store().keep(doomed, spoken(ava.id, 1), [])).toBe(true);
    expect(await audioIn(doomed)).toHaveLength(1);
    expect((await owner.client.request(`/api/channels/${doomed}`, { method: 'DELETE' })).status).toBe(200);
    expect(await audioIn(doomed)).toEqual([]);
  });

  it('deletes a user’s own transmissions with their account, and nobody else’s', async () => {
    const shared = await createChannel('Shared', [ava, ben]);
    expect(await store().keep(shared, spoken(ava.id, 1), [])).toBe(true);
    expect(await store().keep(shared, spoken(ben.id, 1), [])).toBe(true);
    expect(await audioIn(shared)).toHaveLength(2);
    const deleted = await ava.client.request('/api/account', { method: 'DELETE', json: { password: 'correct horse battery' } });
    expect(deleted.status).toBe(200);
    const left = await listOf(ben, shared);
    expect(left.transmissions.map((t) => t.speaker.id)).toEqual([ben.id]);
    expect(await audioIn(shared)).toEqual([left.transmissions[0]!.id]);
  });
});

describe.each(testStorages())('the size limit per channel on $name', ({ database, store: audioStore }) => {
  let server: TestServer;

  beforeAll(async () => {
    // 20 KiB: four one-second transmissions (≈ 4.8 KB each) fit, a fifth pushes out the oldest.
    server = await startTestServer(await database.open(), {
      ...audioStore.env(),
      TRANSMISSION_MAX_MB_PER_CHANNEL: String(20 / 1024),
    });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('drops the oldest transmissions first when a channel passes its limit', async () => {
    const owner = await signInOwner(server, 'Olive Owner', 'olive.owner@example.com');
    const id = await createPlainChannel(owner, 'Busy');
    await owner.client.request(`/api/channels/${id}/talk-mode`, { method: 'PUT', json: { talkMode: 'walkie' } });
    const start = Date.now() - 60_000;
    for (let n = 0; n < 5; n++) {
      const kept = await server.app.ctx.transmissions.keep(id, spoken(owner.id, 1, new Date(start + n * 1000)), []);
      expect(kept).toBe(true);
    }
    const { transmissions } = await listOf(owner, id);
    expect(transmissions.map((t) => Date.parse(t.startedAt))).toEqual([1, 2, 3, 4].map((n) => start + n * 1000));
    const audio = await storedAudioOf(server, id);
    expect(audio.sort()).toEqual(transmissions.map((t) => t.id).sort());
  });

  it('one speaker’s flood pushes out their own transmissions, not everyone else’s', async () => {
    const owner = await signIn(server, 'Olive Owner', 'olive.owner@example.com');
    const flooder = await signIn(server, 'Fred Flood', 'fred@example.com');
    const quiet = await signIn(server, 'Quinn Quiet', 'quinn@example.com');
    const id = await createPlainChannel(owner, 'Crowded');
    await addToChannel(owner, id, flooder);
    await addToChannel(owner, id, quiet);
    await owner.client.request(`/api/channels/${id}/talk-mode`, { method: 'PUT', json: { talkMode: 'walkie' } });
    const start = Date.now() - 60_000;
    const keep = (who: Person, n: number) =>
      server.app.ctx.transmissions.keep(id, spoken(who.id, 1, new Date(start + n * 1000)), []);
    expect(await keep(quiet, 0)).toBe(true);
    expect(await keep(owner, 1)).toBe(true);
    for (let n = 2; n < 8; n++) expect(await keep(flooder, n)).toBe(true);
    const { transmissions } = await listOf(owner, id);
    const speakers = transmissions.map((t) => t.speaker.id);
    // The two oldest, said by others, are still there; the flood kept only its newest.
    expect(speakers.slice(0, 2)).toEqual([quiet.id, owner.id]);
    expect(speakers.slice(2).every((s) => s === flooder.id)).toBe(true);
    expect(transmissions.at(-1)!.startedAt).toBe(new Date(start + 7_000).toISOString());
  });
});
