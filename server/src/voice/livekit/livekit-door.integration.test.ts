import { eq } from 'drizzle-orm';
import { TrackSource } from 'livekit-server-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addToChannel,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  type Person,
} from '../../testing/people.js';
import { usageSessions } from '../../db/schema.js';
import { testDatabases } from '../../testing/test-databases.js';
import { TestSocket } from '../../testing/test-socket.js';
import { UsageSweeper } from '../../usage/usage-sweeper.js';
import { opusPacketFactory } from '../sfu/testing/sfu-test-server.js';
import type { LivekitTestParticipant } from './testing/livekit-test-participant.js';
import {
  eventually,
  joinLivekit,
  listed,
  livekitWithWebhooks,
  requestToken,
  startLivekitTestServer,
  tokenOf,
  type LivekitTestServer,
} from '../../testing/livekit-test-server.js';

/**
 * LiveKit admits only who may be there now: every join is checked by the app (its webhook), with
 * the rule the built-in SFU uses, whatever token the participant came with — one the app minted
 * before a change, or one LiveKit itself refreshed while they were connected.
 */
describe.runIf(livekitWithWebhooks)('LiveKit admits only who may be there now', () => {
  let server: LivekitTestServer;
  let admin: Person;
  let bea: Person;
  let cal: Person;
  const participants: LivekitTestParticipant[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startLivekitTestServer(await testDatabases()[0]!.open(), { BILLING: 'on' });
    const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    admin = await signIn(server, 'Ada Admin', 'ada@example.com');
    bea = await signIn(server, 'Bea Member', 'bea@example.com');
    cal = await signIn(server, 'Cal Member', 'cal@example.com');
    await setTier(superadmin, admin, 'admin');
  });
  afterEach(async () => {
    await Promise.all(participants.splice(0).map((p) => p.close()));
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await server.stop();
    await server.database.close();
  });

  const join = async (token: string) => {
    const participant = await joinLivekit(token);
    participants.push(participant);
    return participant;
  };
  /** Joined, and let in by the app's webhook with its rights set (or removed by it). */
  const decided = async (participant: LivekitTestParticipant, channelId: number) => {
    await eventually(
      async () =>
        participant.closed ||
        (
          await server.database.db
            .select()
            .from(usageSessions)
            .where(eq(usageSessions.voiceConnection, participant.sid))
        ).length > 0,
      'the join webhook',
    );
    return listed(server, channelId, participant.identity);
  };
  const removed = async (participant: LivekitTestParticipant, channelId: number) => {
    await eventually(
      async () => participant.closed && !(await listed(server, channelId, participant.identity)),
      `${participant.identity} removed`,
    );
    return true;
  };
  /** One packet sequence per talker: a sequence number sent twice is dropped as a replay. */
  const packets = new WeakMap<
    LivekitTestParticipant,
    () => ReturnType<ReturnType<typeof opusPacketFactory>>
  >();
  /** Packets `listener` hears of `talker` while `talker` sends `count`. */
  const heardWhile = async (
    listener: LivekitTestParticipant,
    talker: LivekitTestParticipant,
    count: number,
  ) => {
    const before = listener.heard(talker.identity);
    let next = packets.get(talker);
    if (!next) {
      const factory = opusPacketFactory();
      next = () => factory();
      packets.set(talker, next);
    }
    await talker.talk(next, count);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return listener.heard(talker.identity) - before;
  };
  const channelWith = async (name: string, ...members: Person[]) => {
    const channelId = await createChannel(admin, name);
    for (const member of members) await addToChannel(admin, channelId, member);
    return channelId;
  };
  const refreshedTokenOf = async (participant: LivekitTestParticipant) => {
    await participant.waitFor(
      () => participant.refreshedToken !== undefined,
      10_000,
      'a refreshed token',
    );
    return participant.refreshedToken!;
  };

  it('lets a member in with a microphone only, and carries their audio', async () => {
    const channelId = await channelWith('Open', bea);
    const talker = await join(await tokenOf(server, bea, channelId));
    expect(talker.joined).toBe(true);
    const info = await decided(talker, channelId);
    expect(info?.permission).toMatchObject({
      canPublish: true,
      canSubscribe: true,
      canPublishData: false,
      canPublishSources: [TrackSource.MICROPHONE],
    });
    const listener = await join(await tokenOf(server, admin, channelId));
    await decided(listener, channelId);
    await talker.publishMicrophone();
    await eventually(
      async () => (await heardWhile(listener, talker, 25)) > 0,
      'audio through LiveKit',
      20_000,
    );
  });

  it('removes a removed member who comes back with the old token or the refreshed one', async () => {
    const channelId = await channelWith('Removal', bea);
    const oldToken = await tokenOf(server, bea, channelId);
    const first = await join(oldToken);
    await decided(first, channelId);
    const refreshed = await refreshedTokenOf(first);
    const removal = await admin.client.request(`/api/channels/${channelId}/members/${bea.id}`, {
      method: 'DELETE',
    });
    expect(removal.status).toBe(200);
    await removed(first, channelId);
    for (const token of [oldToken, refreshed]) {
      const again = await join(token);
      expect(await removed(again, channelId)).toBe(true);
    }
  });

  it("does not bring back a deleted channel's room for an old token", async () => {
    const channelId = await channelWith('Deleted', bea);
    const oldToken = await tokenOf(server, bea, channelId);
    expect(
      (await admin.client.request(`/api/channels/${channelId}`, { method: 'DELETE' })).status,
    ).toBe(200);
    const again = await join(oldToken);
    await eventually(() => again.closed, 'the join refused');
    const rooms = await server.rooms.listRooms([`${server.prefix}${channelId}`]);
    expect(rooms).toEqual([]);
  });

  it('silences an admin-muted member who rejoins with a token from before the mute', async () => {
    const channelId = await channelWith('Muted', bea);
    const preMute = await tokenOf(server, bea, channelId);
    const listener = await join(await tokenOf(server, admin, channelId));
    await decided(listener, channelId);
    const mute = await admin.client.request(`/api/channels/${channelId}/members/${bea.id}/mute`, {
      method: 'POST',
    });
    expect(mute.status).toBe(200);
    const talker = await join(preMute);
    expect((await decided(talker, channelId))?.permission?.canPublish).toBe(false);
    await talker.publishMicrophone().catch(() => undefined);
    expect(await heardWhile(listener, talker, 100)).toBe(0);
  });

  it('withholds the publish right from a token minted while holding the floor, once the floor moved on', async () => {
    const channelId = await channelWith('Walkie', bea);
    const mode = await admin.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', maxTransmissionSeconds: 30 },
    });
    expect(mode.status).toBe(200);
    // Only someone in the channel's voice may hold the floor.
    await decided(await join(await tokenOf(server, bea, channelId)), channelId);
    const socket = await TestSocket.open(bea.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: bea.id });
    socket.send({ type: 'floor_request', channelId });
    await socket.next(
      (m: { type?: string; holder?: { id: string } | null }) =>
        m.type === 'floor_state' && m.holder?.id === bea.id,
    );
    const whileHolding = await tokenOf(server, bea, channelId);
    socket.send({ type: 'floor_release', channelId });
    await socket.next(
      (m: { type?: string; holder?: unknown }) => m.type === 'floor_state' && m.holder === null,
    );

    const listener = await join(await tokenOf(server, admin, channelId));
    await decided(listener, channelId);
    const talker = await join(whileHolding);
    expect((await decided(talker, channelId))?.permission?.canPublish).toBe(false);
    await talker.publishMicrophone().catch(() => undefined);
    expect(await heardWhile(listener, talker, 100)).toBe(0);
  });

  it("gives an admin unmute in a walkie channel the publish right only to the floor's holder", async () => {
    const channelId = await channelWith('Walkie unmute', bea, cal);
    await admin.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', maxTransmissionSeconds: 30 },
    });
    const beaVoice = await join(await tokenOf(server, bea, channelId));
    await decided(beaVoice, channelId);
    // Only someone in the channel's voice may hold the floor.
    await decided(await join(await tokenOf(server, cal, channelId)), channelId);
    const socket = await TestSocket.open(cal.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: cal.id });
    socket.send({ type: 'floor_request', channelId });
    await socket.next(
      (m: { type?: string; holder?: { id: string } | null }) =>
        m.type === 'floor_state' && m.holder?.id === cal.id,
    );
    const path = `/api/channels/${channelId}/members/${bea.id}/mute`;
    expect((await admin.client.request(path, { method: 'POST' })).status).toBe(200);
    expect((await admin.client.request(path, { method: 'DELETE' })).status).toBe(200);
    expect((await listed(server, channelId, beaVoice.identity))?.permission?.canPublish).toBe(
      false,
    );
  });

  it('removes an over-allowance user (billing on) who rejoins with an old token', async () => {
    const channelId = await channelWith('Allowance', cal);
    const oldToken = await tokenOf(server, cal, channelId);
    await server.database.db.insert(usageSessions).values({
      userId: cal.id,
      channelId,
      startedAt: new Date(Date.now() - 1000),
      endedAt: new Date(),
      participantMinutes: 10_500,
    });
    expect((await requestToken(server, cal, channelId)).status).toBe(429);
    expect(await removed(await join(oldToken), channelId)).toBe(true);
    await server.database.db.delete(usageSessions).where(eq(usageSessions.userId, cal.id));
  });

  it('keeps a connection without a /ws socket metered while LiveKit carries it', async () => {
    const channelId = await channelWith('Metered', bea);
    const voice = await join(await tokenOf(server, bea, channelId));
    await decided(voice, channelId);
    const livekit = server.app.ctx.voice.livekit!;
    // Three minutes later by the sweeper's clock: nobody has a socket, LiveKit still lists Bea.
    const later = Date.now() + 3 * 60_000;
    await new UsageSweeper(
      server.database.db,
      async () => ({ connectionIds: await livekit.connectionIds() }),
      () => later,
    ).sweep();
    const [row] = await server.database.db
      .select()
      .from(usageSessions)
      .where(eq(usageSessions.voiceIdentity, voice.identity));
    expect(row).toMatchObject({ endedAt: null });
    expect(row!.lastSeenAt!.getTime()).toBe(later);
  });

  it("keeps a blocked user's audio from the blocker and the blocker's from them, from the block on", async () => {
    const channelId = await channelWith('Blocking', bea, cal);
    const ada = await join(await tokenOf(server, admin, channelId));
    const beaVoice = await join(await tokenOf(server, bea, channelId));
    const calVoice = await join(await tokenOf(server, cal, channelId));
    for (const p of [ada, beaVoice, calVoice]) await decided(p, channelId);
    for (const p of [ada, beaVoice]) await p.publishMicrophone();
    await eventually(
      async () => (await heardWhile(ada, beaVoice, 25)) > 0,
      'Ada hears Bea',
      20_000,
    );
    await eventually(
      async () => (await heardWhile(beaVoice, ada, 25)) > 0,
      'Bea hears Ada',
      20_000,
    );

    const block = await admin.client.request(`/api/users/${bea.id}/block`, { method: 'POST' });
    expect(block.status).toBe(200);
    // LiveKit applies the unsubscription on its own time, a few packets after it answered.
    await eventually(
      async () => (await heardWhile(ada, beaVoice, 10)) === 0,
      'Ada stops hearing Bea',
    );
    await eventually(
      async () => (await heardWhile(beaVoice, ada, 10)) === 0,
      'Bea stops hearing Ada',
    );
    expect(await heardWhile(ada, beaVoice, 100)).toBe(0);
    expect(await heardWhile(beaVoice, ada, 100)).toBe(0);
    // Cal, who blocked nobody, still hears both.
    await eventually(
      async () => (await heardWhile(calVoice, beaVoice, 25)) > 0,
      'Cal hears Bea',
      20_000,
    );
    await eventually(
      async () => (await heardWhile(calVoice, ada, 25)) > 0,
      'Cal hears Ada',
      20_000,
    );

    // Ada comes back while the block stands: once LiveKit told the app of her join, Bea's audio
    // does not reach her.
    await ada.close();
    const adaAgain = await join(await tokenOf(server, admin, channelId));
    await decided(adaAgain, channelId);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await heardWhile(adaAgain, beaVoice, 100)).toBe(0);

    // A modified client subscribes again on its own; the app's timer withdraws it again.
    adaAgain.setSubscribed([beaVoice.publishedTrackSid!], true);
    await eventually(
      async () => (await heardWhile(adaAgain, beaVoice, 10)) > 0,
      'a client-side resubscription',
    );
    await server.app.ctx.voice.livekit!.keepBlocksApart();
    await eventually(
      async () => (await heardWhile(adaAgain, beaVoice, 10)) === 0,
      'Ada cut off again',
    );
    expect(await heardWhile(adaAgain, beaVoice, 100)).toBe(0);

    const unblock = await admin.client.request(`/api/users/${bea.id}/block`, { method: 'DELETE' });
    expect(unblock.status).toBe(200);
    await eventually(
      async () => (await heardWhile(adaAgain, beaVoice, 25)) > 0,
      'Ada hears Bea again',
      20_000,
    );
  });

  it("records a walkie-talkie transmission with the server's own listener, in the room the app made", async () => {
    const channelId = await channelWith('Recorded', bea);
    await admin.client.request(`/api/channels/${channelId}/talk-mode`, {
      method: 'PUT',
      json: { talkMode: 'walkie', maxTransmissionSeconds: 30 },
    });
    const talker = await join(await tokenOf(server, bea, channelId));
    await decided(talker, channelId);
    const socket = await TestSocket.open(bea.client);
    sockets.push(socket);
    socket.send({ type: 'join_channel', channelId, userId: bea.id });
    socket.send({ type: 'floor_request', channelId });
    await socket.next(
      (m: { type?: string; holder?: { id: string } | null }) =>
        m.type === 'floor_state' && m.holder?.id === bea.id,
    );
    await eventually(
      async () =>
        (await listed(server, channelId, talker.identity))?.permission?.canPublish === true,
      'the publish right with the floor',
    );
    await talker.publishMicrophone();
    const packet = opusPacketFactory();
    await talker.talk(() => packet(), 150);
    socket.send({ type: 'floor_release', channelId });
    await eventually(async () => {
      const list = (await (
        await admin.client.request(`/api/channels/${channelId}/transmissions`)
      ).json()) as { transmissions?: { speaker: { id: string } }[] };
      return list.transmissions?.some((t) => t.speaker.id === bea.id) ?? false;
    }, 'the kept transmission');
  });
});
