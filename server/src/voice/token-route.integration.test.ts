import { eq } from 'drizzle-orm';
import { AccessToken, TokenVerifier } from 'livekit-server-sdk';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSessions } from '../db/schema.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { embeddedVoiceSecret } from './embedded-provider.js';
import { VOICE_TOKENS_PER_MINUTE } from './token-route.js';
import { EMBEDDED_VOICE_API_KEY, createVoiceTokenVerifier } from './voice-token.js';

interface Setup {
  server: TestServer;
  admin: TestClient;
  member: TestClient;
  memberId: string;
  channelId: number;
}

async function setUp(server: TestServer): Promise<Setup> {
  const admin = new TestClient(server.baseUrl);
  await signInBuiltIn(admin, { name: 'Ada Admin', email: 'ada@example.com' });
  await claimServer(server, admin);
  const member = new TestClient(server.baseUrl);
  await signInBuiltIn(member, { name: 'Mo Member', email: 'mo@example.com' });
  const memberId = ((await (await member.request('/api/auth/user')).json()) as { id: string }).id;
  const channelId = ((await (await admin.request('/api/channels', { method: 'POST', json: { name: 'Voice' } })).json()) as { id: number }).id;
  await admin.request(`/api/channels/${channelId}/members`, { method: 'POST', json: { userId: memberId } });
  return { server, admin, member, memberId, channelId };
}

const askToken = (s: Setup, client: TestClient, userId: string) =>
  client.request('/api/livekit-token', { method: 'POST', json: { channelId: s.channelId, userId, userName: 'Mo' } });

describe.each(testDatabases())('POST /api/livekit-token with the built-in SFU on $name', (database) => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp(await startTestServer(await database.open()));
  });
  afterAll(async () => {
    await s.server.close();
    await s.server.database.close();
  });

  it('issues a 10-minute token for the channel room that the SFU accepts', async () => {
    const response = await askToken(s, s.member, s.memberId);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { configured: boolean; provider: string; url: string; token: string };
    expect(body).toMatchObject({ configured: true, provider: 'embedded', url: `ws://127.0.0.1:${new URL(s.server.baseUrl).port}/rtc` });
    const verify = createVoiceTokenVerifier({ apiSecret: embeddedVoiceSecret(s.server.config.sessionSecret) });
    const claims = await verify(body.token);
    expect(claims).toMatchObject({ userId: s.memberId, roomName: `channel-${s.channelId}`, canPublish: true, name: 'Mo Member' });
    // Ten minutes from its minting, by the token's own stamps (not the test's clock).
    const stamps = await new TokenVerifier(EMBEDDED_VOICE_API_KEY, embeddedVoiceSecret(s.server.config.sessionSecret)).verify(body.token);
    expect(stamps.exp! - stamps.nbf!).toBe(10 * 60);
    expect(claims.expiresAt).toBe(stamps.exp! * 1000);
  });

  it('withholds the publish right while the member is admin-muted', async () => {
    await s.admin.request(`/api/channels/${s.channelId}/members/${s.memberId}/mute`, { method: 'POST' });
    const body = (await (await askToken(s, s.member, s.memberId)).json()) as { token: string };
    const verify = createVoiceTokenVerifier({ apiSecret: embeddedVoiceSecret(s.server.config.sessionSecret) });
    expect((await verify(body.token)).canPublish).toBe(false);
    await s.admin.request(`/api/channels/${s.channelId}/members/${s.memberId}/mute`, { method: 'DELETE' });
  });

  it("refuses someone else's userId, non-members, guests and over-limit users", async () => {
    const adminId = ((await (await s.admin.request('/api/auth/user')).json()) as { id: string }).id;
    const refused = await askToken(s, s.member, adminId);
    expect(refused.status).toBe(403);
    // Refusals name the provider, so the client's "Failed to get {provider} token" is right.
    expect(await refused.json()).toEqual({ message: 'Tokens are issued only for yourself', provider: 'embedded' });
    const outsider = new TestClient(s.server.baseUrl);
    expect((await askToken(s, outsider, 'x')).status).toBe(401);
    await signInBuiltIn(outsider, { name: 'Out Sider', email: 'out@example.com' });
    const outsiderId = ((await (await outsider.request('/api/auth/user')).json()) as { id: string }).id;
    expect((await askToken(s, outsider, outsiderId)).status).toBe(403);
    await s.server.database.db
      .insert(usageSessions)
      .values({ userId: s.memberId, channelId: s.channelId, endedAt: new Date(), participantMinutes: 10_000 });
    const limited = await askToken(s, s.member, s.memberId);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'Free tier limit exceeded - cannot connect', provider: 'embedded' });
    await s.server.database.db.delete(usageSessions).where(eq(usageSessions.userId, s.memberId));
  });
});

describe('POST /api/livekit-token rate limit', () => {
  it('mints at most VOICE_TOKENS_PER_MINUTE tokens a minute per user, whatever their sessions', async () => {
    const [database] = testDatabases();
    const s = await setUp(await startTestServer(await database!.open()));
    try {
      // A second sign-in of the same member: the limit is the user's, not the session's.
      const again = new TestClient(s.server.baseUrl);
      await signInBuiltIn(again, { name: 'Mo Member', email: 'mo@example.com' });
      const statuses: number[] = [];
      for (let i = 0; i < VOICE_TOKENS_PER_MINUTE; i++)
        statuses.push((await askToken(s, i % 2 ? again : s.member, s.memberId)).status);
      expect(statuses.every((status) => status === 200)).toBe(true);
      const over = await askToken(s, again, s.memberId);
      expect(over.status).toBe(429);
      // Another member is not held back by Mo's tokens.
      expect((await askToken(s, s.admin, (await (await s.admin.request('/api/auth/user')).json() as { id: string }).id)).status).toBe(200);
    } finally {
      await s.server.close();
      await s.server.database.close();
    }
  });
});

describe('POST /api/livekit-token with LiveKit selected', () => {
  it('answers configured:false with the provider name when LiveKit is not configured', async () => {
    const [database] = testDatabases();
    const server = await startTestServer(await database!.open(), { VOICE_PROVIDER: 'livekit' });
    try {
      const s = await setUp(server);
      const response = await askToken(s, s.member, s.memberId);
      expect(await response.json()).toEqual({ configured: false, provider: 'LiveKit' });
    } finally {
      await server.close();
      await server.database.close();
    }
  });

  // Tokens and webhooks checked with the SDK's own verifier and signer (what a LiveKit server uses),
  // against the test LiveKit (the token endpoint creates the room there).
  it.runIf(process.env.TEST_LIVEKIT_URL)('issues microphone-only tokens LiveKit verifies, and closes usage on a signed participant_left webhook', async () => {
    const [database] = testDatabases();
    const prefix = `family${Date.now().toString(36)}-`;
    const env = { VOICE_PROVIDER: 'livekit', LIVEKIT_URL: process.env.TEST_LIVEKIT_URL!, LIVEKIT_API_KEY: process.env.TEST_LIVEKIT_API_KEY ?? 'devkey', LIVEKIT_API_SECRET: process.env.TEST_LIVEKIT_API_SECRET ?? 'secret', LIVEKIT_ROOM_PREFIX: prefix };
    const server = await startTestServer(await database!.open(), env);
    try {
      const s = await setUp(server);
      const body = (await (await askToken(s, s.member, s.memberId)).json()) as { url: string; token: string; provider: string };
      expect(body).toMatchObject({ provider: 'LiveKit', url: env.LIVEKIT_URL });
      const claims = await new TokenVerifier(env.LIVEKIT_API_KEY, env.LIVEKIT_API_SECRET).verify(body.token);
      // A microphone and nothing else: no camera, no screen share, no data messages.
      expect(claims.video).toMatchObject({ roomJoin: true, room: `${prefix}${s.channelId}`, canPublish: true, canSubscribe: true, canPublishData: false, canPublishSources: ['microphone'] });
      expect(claims.sub?.startsWith(`${s.memberId}-`)).toBe(true);

      const started = (await (await s.member.request('/api/usage/session/start', { method: 'POST', json: { channelId: s.channelId } })).json()) as { sessionId: string };
      const event = JSON.stringify({
        event: 'participant_left',
        room: { name: `${prefix}${s.channelId}` },
        participant: { sid: 'PA_1', identity: claims.sub, joinedAt: String(Math.floor(Date.now() / 1000) - 90) },
        id: 'EV_1',
        createdAt: String(Math.floor(Date.now() / 1000)),
      });
      const post = (authorization: string) =>
        fetch(`${server.baseUrl}/api/livekit/webhook`, { method: 'POST', body: event, headers: { 'content-type': 'application/webhook+json', authorization } });

      expect((await post('Bearer not-a-token')).status).toBe(403);
      const signer = new AccessToken(env.LIVEKIT_API_KEY, env.LIVEKIT_API_SECRET);
      signer.sha256 = createHash('sha256').update(event).digest('base64');
      expect((await post(await signer.toJwt())).status).toBe(200);
      const [row] = await server.database.db.select().from(usageSessions).where(eq(usageSessions.id, started.sessionId));
      // The connection claimed the client's session row; its leave closed it at the voice server's times.
      expect(row).toMatchObject({ endReason: 'voice-left', voiceIdentity: claims.sub, voiceConnection: 'PA_1', participantMinutes: 2 });
    } finally {
      await server.close();
      await server.database.close();
    }
  });
});
