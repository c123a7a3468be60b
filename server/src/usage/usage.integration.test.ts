import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSessions } from '../db/schema.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { UsageSweeper } from './usage-sweeper.js';
import { deleteUserAndData } from '../users/delete-user.js';
import {
  closeVoiceUsage,
  openVoiceUsage,
  touchVoiceUsage,
  VoiceUserGoneError,
} from './voice-usage.js';

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
    const response = await client.request('/api/usage/session/start', {
      method: 'POST',
      json: { channelId },
    });
    return {
      status: response.status,
      body: (await response.json()) as { sessionId?: string; message?: string },
    };
  };

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = new TestClient(server.baseUrl);
    await signInBuiltIn(owner, { name: 'Uma Owner', email: 'uma@example.com' });
    await claimServer(server, owner);
    member = new TestClient(server.baseUrl);
    await signInBuiltIn(member, { name: 'Max Member', email: 'max@example.com' });
    memberId = ((await (await member.request('/api/auth/user')).json()) as { id: string }).id;
    channelId = (
      (await (
        await owner.request('/api/channels', { method: 'POST', json: { name: 'Metered' } })
      ).json()) as { id: number }
    ).id;
    await owner.request(`/api/channels/${channelId}/members`, {
      method: 'POST',
      json: { userId: memberId },
    });
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

  it('bills nothing for sessions a client starts and ends without a voice connection', async () => {
    const { status, body } = await start(member);
    expect(status).toBe(200);
    await backdate(body.sessionId!, 2.5);
    const end = await member.request('/api/usage/session/end', {
      method: 'POST',
      json: { sessionId: body.sessionId },
    });
    expect(await end.json()).toEqual({ participantMinutes: 0 });
    const again = await member.request('/api/usage/session/end', {
      method: 'POST',
      json: { sessionId: body.sessionId },
    });
    expect(await again.json()).toEqual({ participantMinutes: 0 });
    for (let i = 0; i < 5; i++) await start(member);
    const usage = (await (await member.request('/api/usage')).json()) as {
      totalMonthlyMinutes: number;
    };
    expect(usage.totalMonthlyMinutes).toBe(0);
  });

  it("refuses to end someone else's session and unknown sessions", async () => {
    const { body } = await start(member);
    expect(
      (
        await owner.request('/api/usage/session/end', {
          method: 'POST',
          json: { sessionId: body.sessionId },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await member.request('/api/usage/session/end', {
          method: 'POST',
          json: { sessionId: 'nope' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await member.request('/api/usage/session/end', { method: 'POST', json: {} })).status,
    ).toBe(400);
    await member.request('/api/usage/session/end', {
      method: 'POST',
      json: { sessionId: body.sessionId },
    });
  });

  it('requires membership of the channel and a signed-in user', async () => {
    const outsider = new TestClient(server.baseUrl);
    expect((await start(outsider)).status).toBe(401);
    await signInBuiltIn(outsider, { name: 'Oz Outsider', email: 'oz@example.com' });
    expect((await start(outsider)).status).toBe(403);
    expect(
      (
        await outsider.request('/api/usage/session/start', {
          method: 'POST',
          json: { channelId: 'x' },
        })
      ).status,
    ).toBe(400);
  });

  it('answers 429 over the allowance without pay-as-you-go, and connects with it', async () => {
    const heavy = new TestClient(server.baseUrl);
    await signInBuiltIn(heavy, { name: 'Hana Heavy', email: 'hana@example.com' });
    const heavyId = ((await (await heavy.request('/api/auth/user')).json()) as { id: string }).id;
    await owner.request(`/api/channels/${channelId}/members`, {
      method: 'POST',
      json: { userId: heavyId },
    });
    await server.database.db.insert(usageSessions).values({
      userId: heavyId,
      channelId,
      startedAt: new Date(Date.now() - 1000),
      endedAt: new Date(),
      participantMinutes: 10_250,
    });
    const usage = (await (await heavy.request('/api/usage')).json()) as Record<string, unknown>;
    expect(usage).toMatchObject({
      isOverLimit: true,
      overageMinutes: 250,
      estimatedOverageCost: 1.5,
      warningLevel: 'critical',
    });
    const refused = await start(heavy);
    expect(refused).toEqual({
      status: 429,
      body: { message: 'Free tier limit exceeded - cannot connect' },
    });
    expect(
      await (await heavy.request('/api/usage/pay-as-you-go/enable', { method: 'POST' })).json(),
    ).toEqual({ payAsYouGoEnabled: true });
    expect((await start(heavy)).status).toBe(200);
    await heavy.request('/api/usage/pay-as-you-go/disable', { method: 'POST' });
    expect((await start(heavy)).status).toBe(429);
  });

  it('closes a connection the server stopped seeing at the moment it last saw it, never billing downtime', async () => {
    const now = Date.now();
    const minutesAgo = (m: number) => new Date(now - m * 60_000);
    const crashed = {
      userId: memberId,
      channelId,
      identity: `${memberId}-1-crashed`,
      connectionId: 'conn-crashed',
    };
    const alive = {
      userId: memberId,
      channelId,
      identity: `${memberId}-2-alive`,
      connectionId: 'conn-alive',
    };
    await openVoiceUsage(server.database.db, crashed, minutesAgo(40));
    await openVoiceUsage(server.database.db, alive, minutesAgo(40));
    // The server saw both until it went down 30 minutes ago; since it came back, only one.
    await touchVoiceUsage(
      server.database.db,
      { connectionIds: [crashed.connectionId, alive.connectionId] },
      minutesAgo(30),
    );
    const sweeper = new UsageSweeper(
      server.database.db,
      () => ({ connectionIds: [alive.connectionId] }),
      () => now,
    );
    expect(await sweeper.sweep()).toBe(1);
    const rows = await server.database.db
      .select()
      .from(usageSessions)
      .where(eq(usageSessions.userId, memberId));
    const row = (id: string) => rows.find((r) => r.voiceConnection === id)!;
    expect(row(crashed.connectionId)).toMatchObject({
      endReason: 'connection-lost',
      participantMinutes: 10,
    });
    expect(row(crashed.connectionId).endedAt!.getTime()).toBe(minutesAgo(30).getTime());
    expect(row(alive.connectionId).endedAt).toBeNull();
    expect(row(alive.connectionId).lastSeenAt!.getTime()).toBe(now);
    await closeVoiceUsage(server.database.db, alive, {
      joinedAt: minutesAgo(40),
      leftAt: new Date(now),
    });
  });

  it("lets a connection claim the client's session: billed from its join to its leave, whatever the client says", async () => {
    const { body } = await start(member);
    const connection = {
      userId: memberId,
      channelId,
      identity: `${memberId}-3-claim`,
      connectionId: 'conn-claim',
    };
    const joinedAt = new Date(Date.now() - 5.5 * 60_000);
    await openVoiceUsage(server.database.db, connection, joinedAt);
    // Ending the session early changes nothing: the connection is still on.
    const early = await member.request('/api/usage/session/end', {
      method: 'POST',
      json: { sessionId: body.sessionId },
    });
    expect(await early.json()).toEqual({ participantMinutes: 6 });
    const [open] = await server.database.db
      .select()
      .from(usageSessions)
      .where(eq(usageSessions.id, body.sessionId!));
    expect(open).toMatchObject({ voiceConnection: 'conn-claim', endedAt: null });
    await closeVoiceUsage(server.database.db, connection, {
      joinedAt,
      leftAt: new Date(joinedAt.getTime() + 2.5 * 60_000),
    });
    const late = await member.request('/api/usage/session/end', {
      method: 'POST',
      json: { sessionId: body.sessionId },
    });
    expect(await late.json()).toEqual({ participantMinutes: 3 });
  });

  it('drops reports about a deleted user quietly: their rows went with them, and nothing is billed', async () => {
    const gone = new TestClient(server.baseUrl);
    await signInBuiltIn(gone, { name: 'Gil Gone', email: 'gil@example.com' });
    const goneId = ((await (await gone.request('/api/auth/user')).json()) as { id: string }).id;
    const connection = { userId: goneId, channelId, identity: `${goneId}-5-gone`, connectionId: 'conn-gone' };
    const joinedAt = new Date(Date.now() - 60_000);
    await openVoiceUsage(server.database.db, connection, joinedAt);
    await deleteUserAndData(server.database.db, goneId);
    const rows = () =>
      server.database.db.select().from(usageSessions).where(eq(usageSessions.userId, goneId));
    expect(await rows()).toEqual([]);
    // The voice server reports the connection's end (and, late, a join) after the deletion.
    await expect(
      closeVoiceUsage(server.database.db, connection, { joinedAt, leftAt: new Date() }),
    ).resolves.toBe(0);
    await expect(
      openVoiceUsage(server.database.db, { ...connection, connectionId: 'conn-gone-2' }, new Date()),
    ).rejects.toBeInstanceOf(VoiceUserGoneError);
    expect(await rows()).toEqual([]);
  });
});
