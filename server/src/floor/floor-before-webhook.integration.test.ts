import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addToChannel,
  createChannel,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { TestSocket } from '../testing/test-socket.js';
import type { LivekitTestParticipant } from '../voice/livekit/testing/livekit-test-participant.js';
import {
  joinLivekit,
  livekitWithWebhooks,
  startLivekitTestServer,
  tokenOf,
  type LivekitTestServer,
} from '../testing/livekit-test-server.js';

type Floor = { type?: string; holder?: { id: string } | null; reason?: string };

/**
 * A press the moment the browser says "Voice Ready": LiveKit tells the app of a join by a webhook,
 * which can come a second or more after the browser is connected (CI saw a held press refused for
 * that). The floor asks LiveKit itself then, so the press is granted; someone who is not in the
 * room is still refused. This server gets no webhooks at all, so the race is decided every time.
 */
describe.runIf(livekitWithWebhooks)('a press before LiveKit reported the join', () => {
  let server: LivekitTestServer;
  let admin: Person;
  let bea: Person;
  let cal: Person;
  const participants: LivekitTestParticipant[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startLivekitTestServer(
      await testDatabases()[0]!.open(),
      {},
      { webhooks: false },
    );
    admin = await signInOwner(server, 'Ada Admin', 'ada@example.com');
    bea = await signIn(server, 'Bea Member', 'bea@example.com');
    cal = await signIn(server, 'Cal Member', 'cal@example.com');
  });
  afterEach(async () => {
    await Promise.all(participants.splice(0).map((p) => p.close()));
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await server.stop();
    await server.database.close();
  });

  const walkieChannel = async (...members: Person[]) => {
    const channelId = await createChannel(admin, `Walkie ${Math.random()}`);
    for (const member of members) await addToChannel(admin, channelId, member);
    const mode = await admin.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', maxTransmissionSeconds: 30 },
    });
    expect(mode.status).toBe(200);
    return channelId;
  };
  const press = async (person: Person, channelId: number) => {
    const socket = await TestSocket.open(person.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: person.id });
    socket.send({ type: 'floor_request', channelId });
    return socket.next<Floor>(
      (m: Floor) =>
        (m.type === 'floor_state' && m.holder?.id === person.id) || m.type === 'floor_denied',
    );
  };

  it('grants the floor to a member LiveKit has in the room, and refuses one who is not there', async () => {
    const channelId = await walkieChannel(bea, cal);
    participants.push(await joinLivekit(await tokenOf(server, bea, channelId)));

    const answer = await press(bea, channelId);
    expect(answer).toMatchObject({ type: 'floor_state', holder: { id: bea.id } });

    // Cal has a socket but no voice connection: a press of his would only jam the channel.
    const socket = await TestSocket.open(cal.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: cal.id });
    socket.send({ type: 'floor_request', channelId });
    expect(await socket.next<Floor>((m: Floor) => m.type === 'floor_denied')).toMatchObject({
      reason: 'not_in_voice',
    });
  });
});
