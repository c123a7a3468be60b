import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Message } from 'werift';
import WebSocket from 'ws';
import {
  VOICE_CLOSE_CODES,
  VOICE_SIGNALLING_VERSION,
} from '../../../../protocol/voice-signalling.js';
import { MAX_SESSIONS_PER_USER } from './embedded-sfu.js';
import { PUBLISHER_LIMITS } from './publisher-rate-limit.js';
import type { SfuParticipantEvent, SfuSpeakingEvent } from './sfu-events.js';
import {
  opusPacketFactory,
  startSfuTestServer,
  type SfuTestServer,
} from './testing/sfu-test-server.js';
import { WeriftVoiceClient } from './testing/werift-voice-client.js';
import { threadConsentAnswers } from './native/receive-thread.js';
import type { ServerVoiceMessage } from '../../../../protocol/voice-signalling.js';

let server: SfuTestServer;
const clients: WeriftVoiceClient[] = [];

beforeAll(async () => {
  server = await startSfuTestServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server.close();
});

async function join(
  userId: string,
  channelId: string | number = 1,
  options: { red?: boolean } = {},
): Promise<WeriftVoiceClient> {
  const client = await WeriftVoiceClient.join(
    server.url,
    await server.token(userId, channelId),
    options,
  );
  clients.push(client);
  return client;
}

/** The participant's ICE agent (werift internals, read the way a browser's agent would act). */
interface ParticipantAgent {
  localUsername: string;
  remoteUsername: string;
  remotePassword: string;
  tieBreaker: bigint;
  iceControlling: boolean;
  nominated?: {
    localCandidate: { host: string; port: number };
    remoteCandidate: { host: string; port: number };
    protocol: {
      request(
        message: Message,
        addr: [string, number],
        integrityKey: Buffer,
      ): Promise<[Message, [string, number]]>;
    };
  };
}

/**
 * Sends the server a consent check on the participant's connection, as a browser does every few
 * seconds, and returns the address the verified answer says the participant is at.
 */
async function consentCheck(client: WeriftVoiceClient): Promise<unknown> {
  const agent = client.pc.dtlsTransports[0]?.iceTransport.connection as unknown as ParticipantAgent;
  const pair = agent.nominated;
  if (!pair) throw new Error('no nominated pair');
  const request = new Message(1, 0)
    .setAttribute('USERNAME', `${agent.remoteUsername}:${agent.localUsername}`)
    .setAttribute('PRIORITY', 1853817087)
    .setAttribute(agent.iceControlling ? 'ICE-CONTROLLING' : 'ICE-CONTROLLED', agent.tieBreaker);
  // werift's request() adds MESSAGE-INTEGRITY and FINGERPRINT and verifies the answer's integrity.
  const [response] = await pair.protocol.request(
    request,
    [pair.remoteCandidate.host, pair.remoteCandidate.port],
    Buffer.from(agent.remotePassword, 'utf8'),
  );
  return response.getAttributeValue('XOR-MAPPED-ADDRESS');
}

/** Sends `count` packets 20 ms apart, like a talking microphone (numbered by `next`). */
async function talk(
  client: WeriftVoiceClient,
  count: number,
  payloadBytes = 80,
  next = opusPacketFactory(),
): Promise<void> {
  for (let i = 0; i < count; i++) {
    client.sendRtp(next(payloadBytes, i));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function refusedWith(token: string | undefined, message?: object): Promise<number> {
  const ws = new WebSocket(server.url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.send(JSON.stringify(message ?? { type: 'join', version: VOICE_SIGNALLING_VERSION, token }));
  return closed;
}

describe('voice tokens at the door', () => {
  it('refuses an expired token', async () => {
    expect(await refusedWith(await server.token('u1', 1, { ttl: '-1m' }))).toBe(
      VOICE_CLOSE_CODES.unauthorized,
    );
  });

  it('refuses a token signed with another secret', async () => {
    const token = await server.token('u1');
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    expect(await refusedWith(forged)).toBe(VOICE_CLOSE_CODES.unauthorized);
  });

  it('refuses a token for a room that is not a channel room', async () => {
    const { createVoiceToken } = await import('../voice-token.js');
    const { TEST_VOICE_SECRET } = await import('./testing/sfu-test-server.js');
    const { AccessToken } = await import('livekit-server-sdk');
    const at = new AccessToken('chirp-embedded', TEST_VOICE_SECRET, {
      identity: 'u1-1-abc',
      ttl: 600,
    });
    at.addGrant({ roomJoin: true, room: 'lobby', canPublish: true });
    expect(await refusedWith(await at.toJwt())).toBe(VOICE_CLOSE_CODES.unauthorized);
    // And a token of ours signed for another deployment's secret.
    const other = await createVoiceToken({
      apiSecret: 'another-secret',
      channelId: 1,
      userId: 'u1',
      userName: 'x',
      adminMuted: false,
    });
    expect(await refusedWith(other.token)).toBe(VOICE_CLOSE_CODES.unauthorized);
  });

  it('refuses a join without a token, and a first message that is not a join', async () => {
    expect(await refusedWith(undefined, { type: 'join', version: VOICE_SIGNALLING_VERSION })).toBe(
      VOICE_CLOSE_CODES.badMessage,
    );
    expect(await refusedWith('')).toBe(VOICE_CLOSE_CODES.badMessage);
    expect(await refusedWith(undefined, { type: 'leave' })).toBe(VOICE_CLOSE_CODES.badMessage);
  });

  it('refuses another protocol version', async () => {
    const token = await server.token('u1');
    expect(
      await refusedWith(undefined, { type: 'join', version: VOICE_SIGNALLING_VERSION + 1, token }),
    ).toBe(VOICE_CLOSE_CODES.unsupportedVersion);
  });
});

describe('connections per user', () => {
  it(`refuses a user's connection beyond ${MAX_SESSIONS_PER_USER}, counting joins still being checked`, async () => {
    // The database's answer takes a while: joins waiting for it hold their place.
    let admissions = 0;
    const slow = await startSfuTestServer({
      admit: async () => {
        admissions++;
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { admitted: true, muted: false };
      },
    });
    const join = async (userId: string, channelId: number) => {
      const client = await WeriftVoiceClient.join(slow.url, await slow.token(userId, channelId));
      clients.push(client);
      return client;
    };
    // Ten joins at once, each to a room of its own.
    const tokens = await Promise.all(
      Array.from({ length: 10 }, (_, i) => slow.token('greedy', 30 + i)),
    );
    const all = await Promise.all(tokens.map((token) => WeriftVoiceClient.join(slow.url, token)));
    clients.push(...all);
    // The ones beyond the limit never reached the database.
    expect(admissions).toBe(MAX_SESSIONS_PER_USER);
    const joined = all.filter((c) => c.joined && c.closeCode === undefined);
    const refused = all.filter((c) => !c.joined);
    expect(joined).toHaveLength(MAX_SESSIONS_PER_USER);
    expect(refused.map((c) => c.closeCode)).toEqual(
      Array(10 - MAX_SESSIONS_PER_USER).fill(VOICE_CLOSE_CODES.tooManyConnections),
    );
    expect(refused[0]!.messages).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'too_many_connections' }),
    );
    // Someone else is not affected; and once one connection leaves, the user may join again.
    expect((await join('modest', 30)).joined).toBeDefined();
    await joined[0]!.close();
    await joined[0]!.waitFor(() => joined[0]!.closeCode !== undefined, 2_000, 'closed');
    const again = await join('greedy', 45);
    await again.waitFor(() => again.joined !== undefined, 5_000, 'joined again');
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await slow.close();
  });

  it('a new connection to a room where the user is at the limit replaces their oldest there', async () => {
    const first = await join('many-devices', 50);
    for (let i = 1; i < MAX_SESSIONS_PER_USER; i++) await join('many-devices', 50 + i);
    const newest = await join('many-devices', 50);
    expect(newest.joined).toBeDefined();
    await first.waitFor(() => first.closeCode !== undefined, 2_000, 'oldest replaced');
    expect(first.closeCode).toBe(VOICE_CLOSE_CODES.replaced);
    expect(server.sfu.participants('channel-50').map((p) => p.identity)).toEqual([
      newest.joined?.self.identity,
    ]);
  });
});

describe('forwarding', () => {
  it('sends a talker to every other participant and never back to the talker', async () => {
    const joined: SfuParticipantEvent[] = [];
    const stop = server.sfu.on('participantJoined', (e) => joined.push(e));
    const a = await join('user-a');
    const b = await join('user-b');
    const c = await join('user-c');
    stop();
    const aIdentity = a.joined?.self.identity ?? '';
    expect(joined.map((e) => e.userId)).toEqual(['user-a', 'user-b', 'user-c']);
    expect(a.joined?.self.userId).toBe('user-a');
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');

    const receivedPayloads: number[] = [];
    b.onRtp = (identity, rtp) => {
      if (identity === aIdentity) receivedPayloads.push(rtp.payload.readUInt32BE(1));
    };
    // Listeners' m-lines may still be negotiating; talk until they hear, then count a clean burst.
    const warmup = talk(a, 50);
    await Promise.all([
      b.waitFor(() => (b.received.get(aIdentity) ?? 0) > 0, 10_000, 'audio at B'),
      c.waitFor(() => (c.received.get(aIdentity) ?? 0) > 0, 10_000, 'audio at C'),
    ]);
    await warmup;
    const before = { b: b.received.get(aIdentity) ?? 0, c: c.received.get(aIdentity) ?? 0 };
    const statsBefore = server.sfu.stats();
    await talk(a, 50);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((b.received.get(aIdentity) ?? 0) - before.b).toBeGreaterThanOrEqual(49);
    expect((c.received.get(aIdentity) ?? 0) - before.c).toBeGreaterThanOrEqual(49);
    // Both listeners were served by the SFU's own SRTP and UDP send, never through werift's.
    const stats = server.sfu.stats();
    expect(stats.fastPathPackets - statsBefore.fastPathPackets).toBeGreaterThanOrEqual(98);
    expect(stats.slowPathPackets).toBe(0);
    // Payloads arrive intact and in order (the marker we wrote is the packet index).
    const lastBurst = receivedPayloads.slice(-50);
    expect(lastBurst).toEqual([...Array(50).keys()]);
    // Never back to the sender.
    expect(a.received.get(aIdentity) ?? 0).toBe(0);
    expect([...a.received.keys()].every((k) => k !== aIdentity)).toBe(true);
  });

  it('carries a RED talker to a RED listener and to a plain-Opus listener, every frame in order', async () => {
    const a = await join('red-talker', 1, { red: true });
    const b = await join('red-listener', 1, { red: true });
    const c = await join('opus-listener');
    const aIdentity = a.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    // What each listener's browser agreed to receive from the SFU.
    const negotiated = (client: WeriftVoiceClient) =>
      client.pc
        .getTransceivers()
        .filter((t) => t.direction === 'recvonly' || t.currentDirection === 'recvonly')
        .flatMap((t) => t.codecs.map((codec) => codec.mimeType.toLowerCase()));
    const heard = { b: [] as number[], c: [] as number[] };
    b.onRtp = (identity, rtp) => {
      if (identity === aIdentity) heard.b.push(rtp.payload.readUInt32BE(1));
    };
    c.onRtp = (identity, rtp) => {
      if (identity === aIdentity) heard.c.push(rtp.payload.readUInt32BE(1));
    };
    // One stream throughout (a RED sender repeats its previous frames, so it must not restart).
    const next = opusPacketFactory();
    const warmup = talk(a, 50, 80, next);
    await Promise.all([
      b.waitFor(() => heard.b.length > 0, 10_000, 'audio at B'),
      c.waitFor(() => heard.c.length > 0, 10_000, 'audio at C'),
    ]);
    await warmup;
    expect(negotiated(b)).toContain('audio/red');
    expect(negotiated(c)).not.toContain('audio/red');
    await talk(a, 50, 80, next);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // werift unpacks RED at both ends; each frame arrives once, intact and in order.
    expect(heard.b.slice(-50)).toEqual([...Array(50).keys()]);
    expect(heard.c.slice(-50)).toEqual([...Array(50).keys()]);
  });

  it('reports speaking from packet sizes and silence when packets stop', async () => {
    const a = await join('talker');
    const b = await join('listener');
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    const events: SfuSpeakingEvent[] = [];
    const stop = server.sfu.on('speakingChanged', (e) => events.push(e));
    await talk(a, 15, 3); // silence first, as a browser's disabled microphone sends
    await talk(a, 30, 100);
    await b.waitFor(() => events.some((e) => e.speaking), 2_000, 'speaking');
    await b.waitFor(() => events.some((e) => !e.speaking), 3_000, 'silence');
    stop();
    expect(events[0]).toMatchObject({ userId: 'talker', speaking: true, roomName: 'channel-1' });
    expect(
      b.messages.some((m) => m.type === 'speaking' && m.userId === 'talker' && m.speaking),
    ).toBe(true);
  });

  it('holds a publisher flooding a thousand packets a second to its packet rate', async () => {
    const a = await join('flooder', 15);
    const b = await join('flood-listener', 15);
    const aIdentity = a.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    const packet = opusPacketFactory();
    const warmup = (async () => {
      for (let i = 0; i < 100 && (b.received.get(aIdentity) ?? 0) === 0; i++) {
        a.sendRtp(packet(80, i));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await b.waitFor(() => (b.received.get(aIdentity) ?? 0) > 0, 10_000, 'audio at B');
    await warmup;
    // Let the bucket fill up again, then flood: ten packets every 10 ms for a second.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const before = b.received.get(aIdentity) ?? 0;
    const started = Date.now();
    for (let burst = 0; burst < 100; burst++) {
      for (let i = 0; i < 10; i++) a.sendRtp(packet(40, i));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const settleMs = 500;
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const seconds = (Date.now() - started) / 1000;
    const forwarded = (b.received.get(aIdentity) ?? 0) - before;
    // Whatever the machine's pace, the listener got the burst and the sustained rate, not 1,000.
    expect(forwarded).toBeLessThanOrEqual(
      PUBLISHER_LIMITS.packetBurst + Math.ceil(seconds * PUBLISHER_LIMITS.packetsPerSecond),
    );
    expect(forwarded).toBeGreaterThan(PUBLISHER_LIMITS.packetBurst);
  });

  it('keeps rooms apart', async () => {
    const a = await join('room-a-user', 7);
    const b = await join('room-b-user', 8);
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    await talk(a, 25);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...b.received.values()].reduce((s, n) => s + n, 0)).toBe(0);
    expect(server.sfu.participants('channel-7').map((p) => p.userId)).toEqual(['room-a-user']);
  });
});

describe('admin controls', () => {
  it('stops forwarding an admin-muted publisher within a second, and resumes on unmute', async () => {
    const a = await join('muted-user');
    const b = await join('hearer');
    const aIdentity = a.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    const talking = talk(a, 150); // 3 s of audio
    await b.waitFor(() => (b.received.get(aIdentity) ?? 0) > 5, 10_000, 'audio before mute');
    server.sfu.setPublisherMuted('channel-1', 'muted-user', true);
    // Packets already in flight may still land; from 300 ms on, nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterMute = b.received.get(aIdentity) ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(b.received.get(aIdentity) ?? 0).toBe(afterMute);
    expect(b.messages.some((m) => m.type === 'publisher_muted' && m.muted)).toBe(true);
    server.sfu.setPublisherMuted('channel-1', 'muted-user', false);
    await b.waitFor(
      () => (b.received.get(aIdentity) ?? 0) > afterMute,
      2_000,
      'audio after unmute',
    );
    await talking;
  });

  it('in a walkie-talkie room forwards only the floor holder, and nobody while the floor is free', async () => {
    const room = 'channel-7';
    const a = await join('walkie-a', 7);
    const b = await join('walkie-b', 7);
    const c = await join('walkie-listener', 7);
    const aIdentity = a.joined?.self.identity ?? '';
    const bIdentity = b.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot a');
    await b.waitFor(() => b.isPublishing, 10_000, 'publish slot b');
    server.sfu.setFloor(room, { walkie: true, holderId: null });
    const holders: (string | null)[] = [];
    const offFloor = server.sfu.on('floorChanged', (event) => {
      if (event.roomName === room) holders.push(event.holderId);
    });
    // The tap: each packet it shows, tagged with the floor of the moment (setFloor is synchronous).
    let phase = 'free';
    const tapped: { userId: string; phase: string }[] = [];
    const offTap = server.sfu.on('packetForwarded', (event) => {
      if (event.roomName === room) tapped.push({ userId: event.userId, phase });
    });
    const heard = (identity: string) => c.received.get(identity) ?? 0;
    const quietFor = async (ms: number) => {
      const before = [heard(aIdentity), heard(bIdentity)];
      await new Promise((resolve) => setTimeout(resolve, ms));
      return [heard(aIdentity) - before[0]!, heard(bIdentity) - before[1]!];
    };
    // Both talk the whole time; what the listener gets is decided by the floor alone.
    const talking = Promise.all([talk(a, 150), talk(b, 150)]);
    // A moment for the in-flight packets and the silence frames after the switch.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await quietFor(400)).toEqual([0, 0]);

    server.sfu.setFloor(room, { walkie: true, holderId: 'walkie-a' });
    phase = 'a';
    await c.waitFor(() => heard(aIdentity) > 5, 2_000, 'the holder is heard');
    const [fromA, fromB] = await quietFor(400);
    expect(fromA).toBeGreaterThan(10);
    expect(fromB).toBe(0);

    // An admin cuts in: the floor moves to b; a falls silent after its silence frames.
    server.sfu.setFloor(room, { walkie: true, holderId: 'walkie-b' });
    phase = 'b';
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [afterA, afterB] = await quietFor(400);
    expect(afterA).toBe(0);
    expect(afterB).toBeGreaterThan(10);

    // Open again: everyone is forwarded.
    server.sfu.setFloor(room, { walkie: false, holderId: null });
    phase = 'open';
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [openA, openB] = await quietFor(400);
    expect(openA).toBeGreaterThan(10);
    expect(openB).toBeGreaterThan(10);
    await talking;
    offFloor();
    offTap();

    // The floor changed hands twice and was given up by the open room; the tap showed only
    // what the gate let through: the holder's packets while the room was a walkie-talkie one.
    expect(holders).toEqual(['walkie-a', 'walkie-b', null]);
    const talkersIn = (which: string) =>
      [...new Set(tapped.filter((t) => t.phase === which).map((t) => t.userId))].sort();
    expect(talkersIn('free')).toEqual([]);
    expect(talkersIn('a')).toEqual(['walkie-a']);
    expect(talkersIn('b')).toEqual(['walkie-b']);
    expect(talkersIn('open')).toEqual(['walkie-a', 'walkie-b']);
  });

  it('disconnectUser closes the user’s socket and tells the others', async () => {
    const left: SfuParticipantEvent[] = [];
    const stop = server.sfu.on('participantLeft', (e) => left.push(e));
    const a = await join('kicked-user');
    const b = await join('stays');
    server.sfu.disconnectUser('channel-1', 'kicked-user', 'removed from channel');
    await a.waitFor(() => a.closeCode !== undefined, 2_000, 'close');
    stop();
    expect(a.closeCode).toBe(VOICE_CLOSE_CODES.kicked);
    // Earlier tests' clients may still be leaving; only this test's users matter here.
    expect(
      left.map((e) => e.userId).filter((id) => id === 'kicked-user' || id === 'stays'),
    ).toEqual(['kicked-user']);
    await b.waitFor(
      () => b.messages.some((m) => m.type === 'participant_left' && m.userId === 'kicked-user'),
      2_000,
    );
    expect(server.sfu.participants('channel-1').map((p) => p.userId)).toEqual(['stays']);
  });

  it('closeRoom ends everyone in the room', async () => {
    const a = await join('x1', 9);
    const b = await join('x2', 9);
    server.sfu.closeRoom('channel-9');
    await a.waitFor(() => a.closeCode !== undefined && b.closeCode !== undefined, 2_000, 'close');
    expect([a.closeCode, b.closeCode]).toEqual([
      VOICE_CLOSE_CODES.roomClosed,
      VOICE_CLOSE_CODES.roomClosed,
    ]);
  });

  it('a token without the publish right gets no publish slot', async () => {
    const client = await WeriftVoiceClient.join(
      server.url,
      await server.token('no-publish', 1, { adminMuted: true }),
    );
    clients.push(client);
    expect(client.joined?.canPublish).toBe(false);
    await client.waitFor(
      () => client.messages.some((m) => m.type === 'offer'),
      5_000,
      'first offer',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client.isPublishing).toBe(false);
    expect(
      client.messages
        .filter((m) => m.type === 'offer')
        .every((m) => m.type === 'offer' && m.publishMid === null),
    ).toBe(true);
    // With no publish slot, the first offer needs the placeholder data channel to connect at all.
    expect(firstOffer(client)?.sdp).toMatch(/^m=application /m);
    await client.waitFor(() => client.pc.connectionState === 'connected', 10_000, 'connected');
  });

  it('a member who may talk is offered the publish slot first, with no data channel to keep alive', async () => {
    const client = await join('publish-first', 1);
    await client.waitFor(() => client.isPublishing, 10_000, 'publish slot');
    expect(firstOffer(client)?.publishMid).toBeTruthy();
    // No SCTP association, so neither end sends a heartbeat every 30 s while the member is idle.
    expect(firstOffer(client)?.sdp).not.toMatch(/^m=application /m);
    expect(client.pc.sctpTransport).toBeFalsy();
    await client.waitFor(() => client.pc.connectionState === 'connected', 10_000, 'connected');
    expect(client.messages.filter((m) => m.type === 'offer')).toHaveLength(1);
  });
});

type Offer = Extract<ServerVoiceMessage, { type: 'offer' }>;

function firstOffer(client: WeriftVoiceClient): Offer | undefined {
  return client.messages.find((m): m is Offer => m.type === 'offer');
}

describe('recovery', () => {
  it('restart_ice makes the server offer fresh ICE credentials, and media keeps flowing', async () => {
    const a = await join('restart-talker', 11);
    const b = await join('restart-listener', 11);
    const aIdentity = a.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    const warm = talk(a, 25);
    await b.waitFor(() => (b.received.get(aIdentity) ?? 0) > 0, 10_000, 'audio before restart');
    await warm;
    const ufrag = (sdp: string) => /a=ice-ufrag:(\S+)/.exec(sdp)?.[1];
    const offers = () => b.messages.filter((m) => m.type === 'offer');
    const lastOffer = offers().at(-1);
    const before = lastOffer?.type === 'offer' ? ufrag(lastOffer.sdp) : undefined;
    const count = offers().length;

    b.ws.send(JSON.stringify({ type: 'restart_ice' }));
    await b.waitFor(() => offers().length > count, 5_000, 'restart offer');
    const restart = offers().at(-1);
    expect(restart?.type === 'offer' ? ufrag(restart.sdp) : undefined).not.toBe(before);

    const received = b.received.get(aIdentity) ?? 0;
    const talking = talk(a, 50);
    await b.waitFor(
      () => (b.received.get(aIdentity) ?? 0) > received + 10,
      5_000,
      'audio after restart',
    );
    await talking;
  });

  it('answers the participant’s consent checks with its own address, before and after an ICE restart', async () => {
    const a = await join('consent-talker', 14);
    const b = await join('consent-listener', 14);
    const aIdentity = a.joined?.self.identity ?? '';
    await a.waitFor(() => a.isPublishing, 10_000, 'publish slot');
    const own = () => {
      const agent = b.pc.dtlsTransports[0]?.iceTransport.connection as unknown as ParticipantAgent;
      const local = agent.nominated?.localCandidate;
      return [local?.host, local?.port];
    };
    // Audio reaching B means the server has nominated B's pair (the client may think so sooner).
    const heard = talk(a, 50);
    await b.waitFor(() => (b.received.get(aIdentity) ?? 0) > 10, 5_000, 'audio');
    await heard;
    // The first check is answered by JavaScript, which then lets the receive thread answer the rest.
    const byThread = threadConsentAnswers();
    expect(await consentCheck(b)).toEqual(own());
    expect(await consentCheck(b)).toEqual(own());
    expect(threadConsentAnswers()).toBeGreaterThan(byThread);

    const offers = () => b.messages.filter((m) => m.type === 'offer').length;
    const count = offers();
    b.ws.send(JSON.stringify({ type: 'restart_ice' }));
    await b.waitFor(() => offers() > count, 5_000, 'restart offer');
    const received = b.received.get(aIdentity) ?? 0;
    const talking = talk(a, 50);
    await b.waitFor(() => (b.received.get(aIdentity) ?? 0) > received + 10, 5_000, 'audio');
    await talking;
    // New credentials: answered by JavaScript, which arms the thread with them again.
    const afterRestart = threadConsentAnswers();
    expect(await consentCheck(b)).toEqual(own());
    expect(await consentCheck(b)).toEqual(own());
    expect(threadConsentAnswers()).toBeGreaterThan(afterRestart);
  });

  it('a resumed socket keeps the session; an unknown session id is refused so the client rejoins', async () => {
    const a = await join('resumer', 12);
    const sessionId = a.joined?.sessionId ?? '';
    const token = await server.token('resumer', 12);
    // A different token of the same user has a different identity, so it cannot take this session over.
    expect(
      await refusedWith(undefined, {
        type: 'resume',
        version: VOICE_SIGNALLING_VERSION,
        token,
        sessionId,
      }),
    ).toBe(VOICE_CLOSE_CODES.sessionExpired);
    expect(
      await refusedWith(undefined, {
        type: 'resume',
        version: VOICE_SIGNALLING_VERSION,
        token,
        sessionId: 'nope',
      }),
    ).toBe(VOICE_CLOSE_CODES.sessionExpired);
    expect(server.sfu.participants('channel-12').map((p) => p.userId)).toEqual(['resumer']);
  });
});
