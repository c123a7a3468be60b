import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOS_ARM_MS, type SosAlert } from '../../../protocol/sos.js';
import { addToChannel, createChannel, signIn, signInOwner, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import {
  eventually,
  joinLivekit,
  listed,
  livekitWithWebhooks,
  startLivekitTestServer,
  tokenOf,
  type LivekitTestServer,
} from '../testing/livekit-test-server.js';
import type { LivekitTestParticipant } from '../voice/livekit/testing/livekit-test-participant.js';

/**
 * An SOS on LiveKit (decision 050): in an open channel, only the sender may publish for the SOS —
 * even admin-muted — and once it is resolved everyone but the admin-muted may publish again.
 */
describe.runIf(livekitWithWebhooks)('an SOS on LiveKit', () => {
  let server: LivekitTestServer;
  let owen: Person;
  let bea: Person;
  let cal: Person;
  const participants: LivekitTestParticipant[] = [];

  beforeAll(async () => {
    server = await startLivekitTestServer(await testDatabases()[0]!.open());
    owen = await signInOwner(server, 'Owen O', 'owen@example.com');
    bea = await signIn(server, 'Bea B', 'bea@example.com');
    cal = await signIn(server, 'Cal C', 'cal@example.com');
  });
  afterEach(async () => {
    await Promise.all(participants.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await server.stop();
    await server.database.close();
  });

  const join = async (who: Person, channelId: number) => {
    const participant = await joinLivekit(await tokenOf(server, who, channelId));
    participants.push(participant);
    return participant;
  };
  const mayPublish = async (channelId: number, participant: LivekitTestParticipant) =>
    (await listed(server, channelId, participant.identity))?.permission?.canPublish;

  it('publishes only the admin-muted sender during an SOS in an open channel, then everyone else again', async () => {
    const channelId = await createChannel(owen, 'Family');
    for (const member of [bea, cal]) await addToChannel(owen, channelId, member);
    const put = (path: string, json: unknown) => owen.client.request(path, { method: 'PUT', json });
    expect((await put(`/api/channels/${channelId}/sos`, { sos: true, sosSeconds: 30 })).status).toBe(200);
    expect((await owen.client.request(`/api/channels/${channelId}/members/${bea.id}/mute`, { method: 'POST' })).status).toBe(200);
    const beaVoice = await join(bea, channelId);
    const calVoice = await join(cal, channelId);
    await eventually(async () => (await mayPublish(channelId, calVoice)) === true, 'Cal may publish (open)');
    expect(await mayPublish(channelId, beaVoice)).toBe(false);

    const raised = await bea.client.request('/api/sos', { method: 'POST', json: { channelId } });
    expect(raised.status).toBe(201);
    const alert = (await raised.json()) as SosAlert;
    await eventually(async () => (await mayPublish(channelId, beaVoice)) === true, 'the muted sender may publish');
    await eventually(async () => (await mayPublish(channelId, calVoice)) === false, 'Cal waits for the SOS');

    expect((await bea.client.request(`/api/sos/${alert.id}/resolve`, { method: 'POST' })).status).toBe(200);
    await eventually(async () => (await mayPublish(channelId, calVoice)) === true, 'Cal may publish again');
    await eventually(async () => (await mayPublish(channelId, beaVoice)) === false, 'the mute holds again');
  });

  it('arms the countdown (decision 054): the sender alone may publish until Cancel or the arm lapses, and the SOS keeps it', async () => {
    const channelId = await createChannel(owen, 'Walkie family');
    for (const member of [bea, cal]) await addToChannel(owen, channelId, member);
    const put = (path: string, json: unknown) => owen.client.request(path, { method: 'PUT', json });
    expect((await put(`/api/channels/${channelId}/talk-mode`, { talkMode: 'walkie' })).status).toBe(200);
    expect((await put(`/api/channels/${channelId}/sos`, { sos: true, sosSeconds: 10 })).status).toBe(200);
    const beaVoice = await join(bea, channelId);
    const calVoice = await join(cal, channelId);
    const post = (who: Person, path: string) =>
      who.client.request(path, { method: 'POST', json: { channelId } });
    await eventually(async () => (await mayPublish(channelId, beaVoice)) === false, 'walkie: nobody publishes');

    // Only a member of the SOS channel arms; an outsider's arm changes nothing.
    const outsider = await signIn(server, 'Oz Outsider', 'oz@example.com');
    expect((await post(outsider, '/api/sos/arm')).status).toBe(403);

    // Armed: Bea may publish (a muted microphone), Cal still may not; Cancel takes it back.
    const armed = await post(bea, '/api/sos/arm');
    expect(await armed.json()).toEqual({ armed: true });
    expect(await mayPublish(channelId, beaVoice)).toBe(true);
    expect(await mayPublish(channelId, calVoice)).toBe(false);
    expect((await post(bea, '/api/sos/disarm')).status).toBe(204);
    expect(await mayPublish(channelId, beaVoice)).toBe(false);

    // Armed and left alone: it lapses by itself.
    expect(await (await post(bea, '/api/sos/arm')).json()).toEqual({ armed: true });
    await eventually(async () => (await mayPublish(channelId, beaVoice)) === false, 'the arm lapses', SOS_ARM_MS + 5_000);

    // Armed, then the SOS: the right stays through the arm's lapse, and ends with the SOS.
    expect(await (await post(bea, '/api/sos/arm')).json()).toEqual({ armed: true });
    const raised = await post(bea, '/api/sos');
    expect(raised.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, SOS_ARM_MS + 200));
    expect(await mayPublish(channelId, beaVoice)).toBe(true);
    const { id } = (await raised.json()) as SosAlert;
    expect((await bea.client.request(`/api/sos/${id}/resolve`, { method: 'POST' })).status).toBe(200);
    await eventually(async () => (await mayPublish(channelId, beaVoice)) === false, 'the SOS ends');

    // A flood of countdowns is refused: four are allowed in two minutes (a cancel and a send are two).
    expect((await post(bea, '/api/sos/arm')).status).toBe(200);
    expect((await post(bea, '/api/sos/disarm')).status).toBe(204);
    expect((await post(bea, '/api/sos/arm')).status).toBe(429);
    expect(await mayPublish(channelId, beaVoice)).toBe(false);
  }, 60_000);

  it("an open channel's countdown brings the recorder into the room, so the SOS is kept from its first words", async () => {
    const channelId = await createChannel(owen, 'Open family');
    await addToChannel(owen, channelId, bea);
    const put = (path: string, json: unknown) => owen.client.request(path, { method: 'PUT', json });
    expect((await put(`/api/channels/${channelId}/talk-mode`, { talkMode: 'open' })).status).toBe(200);
    expect((await put(`/api/channels/${channelId}/sos`, { sos: true, sosSeconds: 10 })).status).toBe(200);
    await join(owen, channelId);
    const recorderIn = async () =>
      (await server.rooms.listParticipants(`${server.prefix}${channelId}`)).some((p) =>
        p.identity.startsWith('chirp_recorder_'),
      );
    expect(await recorderIn()).toBe(false);
    const arm = await owen.client.request('/api/sos/arm', { method: 'POST', json: { channelId } });
    expect(await arm.json()).toEqual({ armed: true });
    await eventually(recorderIn, 'the recorder in the room');
  });

  it('a modified client that unmutes its armed microphone before any SOS loses the arm at once (decision 054)', async () => {
    const channelId = await createChannel(owen, 'Walkie hostile');
    await addToChannel(owen, channelId, cal);
    const put = (path: string, json: unknown) => owen.client.request(path, { method: 'PUT', json });
    expect((await put(`/api/channels/${channelId}/talk-mode`, { talkMode: 'walkie' })).status).toBe(200);
    expect((await put(`/api/channels/${channelId}/sos`, { sos: true, sosSeconds: 10 })).status).toBe(200);
    const calVoice = await join(cal, channelId);
    const arm = await cal.client.request('/api/sos/arm', { method: 'POST', json: { channelId } });
    expect(await arm.json()).toEqual({ armed: true });
    await eventually(async () => (await mayPublish(channelId, calVoice)) === true, 'armed');

    // As an honest client does: published muted, which keeps the arm.
    await calVoice.publishMicrophone({ muted: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await mayPublish(channelId, calVoice)).toBe(true);

    // Then unmuted with nobody's floor to talk on: the recorder in the room sees it, the arm ends.
    calVoice.setMuted(false);
    await eventually(async () => (await mayPublish(channelId, calVoice)) === false, 'the arm is taken back', 3_000);
  }, 30_000);
});
