import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SosAlert } from '../../../protocol/sos.js';
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
});
