import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSessions } from '../db/schema.js';
import type { PresenceReader } from '../presence/presence-reader.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { UsageSweeper, endSessionsForClosedVoice } from './usage-sweeper.js';

describe.each(testDatabases())('usage metering on $name', (database) => {
  let server: TestServer;
  let owner: TestClient;
  let member: TestClient;
  let memberId: string;
  let channelId: number;

  const backdate = async (sessionId: string, minutesAgo: number) => {
    await server.database.db
      .update(usageSessions)
      .set({ startedAt: new Date(Date.now() - minutesAgo * 60_000) })
      .where(eq(usageSessions.id, sessionId));
  };
  const start = async (client: TestClient) => {
    const response = await client.request('/api/usage/session/start', { method: 'POST', json: { channelId } });
    return { status: response.status, body: (await response.json()) as { sessionId?: string; message?: string } };
  };

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = new TestClient(server.baseUrl);
    await signInBuiltIn(owner, { name: 'Uma Owner', email: 'uma@example.com' });
    await claimServer(server, owner);
    member = new TestClient(server.baseUrl);
    await signInBuiltIn(member, { name: 'Max Member', email: 'max@example.com' });
    memberId = ((await (await member.request('/api/auth/user')).json()) as { id: string }).id;
    channelId = ((await (await owner.request('/api/channels', { method: 'POST', json: { name: 'Metered' } })).json()) as { id: number }).id;
    await owner.request(`/api/channels/${channelId}/members`, { method: 'POST', json: { userId: memberId } });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('starts with an unused month', async () => {
    const usage = await (await member.request('/api/usage')).json();
    expect(usage).toEqual({
      totalMonthlyMinutes: 0,
      usagePercentage: 0,
      freeMinutesRemaining: 10_000,
      warningLevel: 'low',
      isOverLimit: false,
      overageMinutes: 0,
      estimatedOverageCost: 0,
      payAsYouGoEnabled: false,
    });
  });

  it('meters a session in whole minutes and ends it only once', async () => {
    const { status, body } = await start(member);
    expect(status).toBe(200);
    await backdate(body.sessionId!, 2.5);
    const end = await member.request('/api/usage/session/end', { method: 'POST', json: { sessionId: body.sessionId } });
    expect(await end.json()).toEqual({ participantMinutes: 3 });
    const again = await member.request('/api/usage/session/end', { method: 'POST', json: { sessionId: body.sessionId } });
    expect(await again.json()).toEqual({ participantMinutes: 3 });
    const usage = (await (await member.request('/api/usage')).json()) as { totalMonthlyMinutes: number };
    expect(usage.totalMonthlyMinutes).toBe(3);
  });

  it("refuses to end someone else's session and unknown sessions", async () => {
    const { body } = await start(member);
    expect((await owner.request('/api/usage/session/end', { method: 'POST', json: { sessionId: body.sessionId } })).status).toBe(403);
    expect((await member.request('/api/usage/session/end', { method: 'POST', json: { sessionId: 'nope' } })).status).toBe(404);
    expect((await member.request('/api/usage/session/end', { method: 'POST', json: {} })).status).toBe(400);
    await member.request('/api/usage/session/end', { method: 'POST', json: { sessionId: body.sessionId } });
  });

  it('requires membership of the channel and a signed-in user', async () => {
    const outsider = new TestClient(server.baseUrl);
    expect((await start(outsider)).status).toBe(401);
    await signInBuiltIn(outsider, { name: 'Oz Outsider', email: 'oz@example.com' });
    expect((await start(outsider)).status).toBe(403);
    expect((await outsider.request('/api/usage/session/start', { method: 'POST', json: { channelId: 'x' } })).status).toBe(400);
  });

  it('answers 429 over the allowance without pay-as-you-go, and connects with it', async () => {
    const heavy = new TestClient(server.baseUrl);
    await signInBuiltIn(heavy, { name: 'Hana Heavy', email: 'hana@example.com' });
    const heavyId = ((await (await heavy.request('/api/auth/user')).json()) as { id: string }).id;
    await owner.request(`/api/channels/${channelId}/members`, { method: 'POST', json: { userId: heavyId } });
    await server.database.db.insert(usageSessions).values({
      userId: heavyId,
      channelId,
      startedAt: new Date(Date.now() - 1000),
      endedAt: new Date(),
      participantMinutes: 10_250,
    });
    const usage = (await (await heavy.request('/api/usage')).json()) as Record<string, unknown>;
    expect(usage).toMatchObject({ isOverLimit: true, overageMinutes: 250, estimatedOverageCost: 1.5, warningLevel: 'critical' });
    const refused = await start(heavy);
    expect(refused).toEqual({ status: 429, body: { message: 'Free tier limit exceeded - cannot connect' } });
    expect(await (await heavy.request('/api/usage/pay-as-you-go/enable', { method: 'POST' })).json()).toEqual({ payAsYouGoEnabled: true });
    expect((await start(heavy)).status).toBe(200);
    await heavy.request('/api/usage/pay-as-you-go/disable', { method: 'POST' });
    expect((await start(heavy)).status).toBe(429);
  });

  it('closes sessions of a user whose socket has been gone for two minutes, billing until it went', async () => {
    const { body } = await start(member);
    let now = Date.now();
    // Started exactly ten minutes before the socket goes: ten minutes billed, not the grace period.
    await server.database.db
      .update(usageSessions)
      .set({ startedAt: new Date(now - 10 * 60_000) })
      .where(eq(usageSessions.id, body.sessionId!));
    // Everyone else stays online; only the member's socket goes away.
    const offline = new Set<string>();
    const presence: PresenceReader = {
      presenceIn: async (_channel, ids) =>
        new Map(ids.filter((id) => !offline.has(id)).map((id) => [id, { isOnline: true, isActiveInChannel: true, isTalking: false }])),
    };
    const sweeper = new UsageSweeper(server.database.db, presence, server.app.log, () => now);
    expect(await sweeper.sweep()).toBe(0);
    offline.add(memberId);
    const wentAt = now;
    expect(await sweeper.sweep()).toBe(0);
    now += 119_000;
    expect(await sweeper.sweep()).toBe(0);
    now += 2_000;
    expect(await sweeper.sweep()).toBe(1);
    const [row] = await server.database.db.select().from(usageSessions).where(eq(usageSessions.id, body.sessionId!));
    expect(row!.endReason).toBe('socket-gone');
    expect(row!.endedAt!.getTime()).toBe(wentAt);
    expect(row!.participantMinutes).toBe(10);
  });

  it('closes the sessions a closed voice connection metered, not a newer reconnect', async () => {
    const first = await start(member);
    const connectedAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await start(member);
    expect(await endSessionsForClosedVoice(server.database.db, memberId, channelId, connectedAt)).toBe(1);
    const rows = await server.database.db.select().from(usageSessions).where(eq(usageSessions.userId, memberId));
    expect(rows.find((r) => r.id === first.body.sessionId)!.endReason).toBe('voice-closed');
    expect(rows.find((r) => r.id === second.body.sessionId)!.endedAt).toBeNull();
  });
});
