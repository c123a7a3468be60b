import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionIdOf } from '../auth/session-store.js';
import { channels, usageSessions, users } from '../db/schema.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { recordIdentity } from '../voice/livekit/livekit-identities.js';
import { LIVEKIT_WEBHOOK_PATH } from '../voice/livekit/livekit-webhook-route.js';

/** The test LiveKit: a join is checked (and its rights set) over its RoomService. */
const LIVEKIT_URL = process.env.TEST_LIVEKIT_URL;
const KEY = process.env.TEST_LIVEKIT_API_KEY ?? 'devkey';
const SECRET = process.env.TEST_LIVEKIT_API_SECRET ?? 'secret';
const PREFIX = `fam${Math.random().toString(36).slice(2, 8)}-`;

/**
 * Usage metered from LiveKit's webhooks, through the real route and LiveKit's signature check: the
 * events are signed here exactly as LiveKit signs them (a JWT over the body's SHA-256), since this
 * test decides their order and timing. `e2e/livekit.spec.ts` has the real server send them.
 *
 * A row this server has not seen for two minutes is closed by the usage sweeper (decision 016; the
 * member holds no socket here), so rows the test expects open joined less than two minutes ago.
 */
describe.runIf(LIVEKIT_URL).each(testDatabases())(
  'voice usage from LiveKit webhooks on $name',
  (database) => {
    let server: TestServer;
    let member: TestClient;
    let memberId: string;
    let channelId: number;
    let otherChannelId: number;
    let owner: TestClient;
    let memberSession: string;
    const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

    const send = async (event: Record<string, unknown>, secret = SECRET) => {
      const body = JSON.stringify({
        id: `EV_${Math.random().toString(36).slice(2)}`,
        createdAt: seconds(new Date()),
        ...event,
      });
      const token = new AccessToken(KEY, secret);
      token.sha256 = createHash('sha256').update(body).digest('base64');
      return fetch(new URL(LIVEKIT_WEBHOOK_PATH, server.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/webhook+json', authorization: await token.toJwt() },
        body,
      });
    };
    const participantEvent = async (
      kind: 'participant_joined' | 'participant_left',
      sid: string,
      joinedAt: Date,
      at: Date,
      room = `${PREFIX}${channelId}`,
    ) => {
      const identity = `${memberId}-${joinedAt.getTime()}-a1b2c3`;
      const roomChannel = Number(room.slice(PREFIX.length));
      // Minted by the token endpoint, as every identity LiveKit admits must be.
      if (room.startsWith(PREFIX) && Number.isInteger(roomChannel) && roomChannel > 0)
        await recordIdentity(server.database.db, {
          identity,
          userId: memberId,
          channelId: roomChannel,
          sessionId: memberSession,
        }).catch(() => undefined); // the channel may be gone (deleted below)
      // A join is reported when it happens; a leave may come later than the time it names.
      const createdAt = kind === 'participant_joined' ? new Date() : at;
      return send({
        event: kind,
        room: { name: room, sid: 'RM_1' },
        participant: { sid, identity, joinedAt: seconds(joinedAt) },
        createdAt: seconds(createdAt),
      });
    };
    const rowsOf = () =>
      server.database.db.select().from(usageSessions).where(eq(usageSessions.userId, memberId));
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const clean = () =>
      server.database.db.delete(usageSessions).where(eq(usageSessions.userId, memberId));

    beforeAll(async () => {
      server = await startTestServer(await database.open(), {
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: LIVEKIT_URL!,
        LIVEKIT_API_KEY: KEY,
        LIVEKIT_API_SECRET: SECRET,
        LIVEKIT_ROOM_PREFIX: PREFIX,
      });
      owner = new TestClient(server.baseUrl);
      await signInBuiltIn(owner, { name: 'Wes Owner', email: 'wes@example.com' });
      await claimServer(server, owner);
      member = new TestClient(server.baseUrl);
      await signInBuiltIn(member, { name: 'Mo Member', email: 'mo@example.com' });
      memberId = ((await (await member.request('/api/auth/user')).json()) as { id: string }).id;
      memberSession = sessionIdOf(member.cookies.get('chirp_session')!);
      channelId = (
        (await (
          await owner.request('/api/channels', { method: 'POST', json: { name: 'Hooks' } })
        ).json()) as { id: number }
      ).id;
      otherChannelId = (
        (await (
          await owner.request('/api/channels', { method: 'POST', json: { name: 'Other' } })
        ).json()) as { id: number }
      ).id;
      for (const id of [channelId, otherChannelId])
        await owner.request(`/api/channels/${id}/members`, {
          method: 'POST',
          json: { userId: memberId },
        });
    });
    afterAll(async () => {
      await server.close();
      await server.database.close();
    });

    it("claims the client's session on join and bills exactly the connection's time", async () => {
      await clean();
      const started = await member.request('/api/usage/session/start', {
        method: 'POST',
        json: { channelId },
      });
      const { sessionId } = (await started.json()) as { sessionId: string };
      // Quarter minutes, so LiveKit's whole seconds never tip a rounding: 10.25 minutes bill as 11.
      const joinedAt = minutesAgo(12.25);
      expect(
        (await participantEvent('participant_joined', 'PA_claim', joinedAt, joinedAt)).status,
      ).toBe(200);
      // The client ends its session first (as it does on leaving); LiveKit's leave still sets the end.
      await member.request('/api/usage/session/end', { method: 'POST', json: { sessionId } });
      expect(
        (await participantEvent('participant_left', 'PA_claim', joinedAt, minutesAgo(2))).status,
      ).toBe(200);
      const rows = await rowsOf();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: sessionId,
        voiceConnection: 'PA_claim',
        participantMinutes: 11,
        endReason: 'voice-left',
      });
      expect(
        (await (await member.request('/api/usage')).json()) as { totalMonthlyMinutes: number },
      ).toMatchObject({
        totalMonthlyMinutes: 11,
      });
    });

    it('meters a connection the client never reported, once, however often LiveKit tells', async () => {
      await clean();
      // Half minutes, so LiveKit's whole seconds never tip a rounding.
      const joinedAt = minutesAgo(1.5);
      for (let i = 0; i < 2; i++)
        await participantEvent('participant_joined', 'PA_quiet', joinedAt, joinedAt);
      const open = await rowsOf();
      expect(open).toHaveLength(1);
      expect(open[0]!.endedAt).toBeNull();
      // Open rows count their minutes so far.
      expect(
        ((await (await member.request('/api/usage')).json()) as { totalMonthlyMinutes: number })
          .totalMonthlyMinutes,
      ).toBe(2);
      for (let i = 0; i < 2; i++)
        await participantEvent('participant_left', 'PA_quiet', joinedAt, minutesAgo(0.75));
      const rows = await rowsOf();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ participantMinutes: 1, endReason: 'voice-left' });
    });

    it('takes a leave that arrives before its join, and a reconnect with the same identity is a new row', async () => {
      await clean();
      const joinedAt = minutesAgo(6);
      await participantEvent('participant_left', 'PA_first', joinedAt, minutesAgo(3.5));
      await participantEvent('participant_joined', 'PA_first', joinedAt, joinedAt);
      await participantEvent('participant_joined', 'PA_second', minutesAgo(1), minutesAgo(1));
      const rows = (await rowsOf()).sort((x, y) => x.startedAt.getTime() - y.startedAt.getTime());
      expect(rows.map((r) => [r.voiceConnection, r.participantMinutes])).toEqual([
        ['PA_first', 3],
        ['PA_second', null],
      ]);
    });

    it('room_finished ends what is still open in that room only', async () => {
      await clean();
      await participantEvent('participant_joined', 'PA_room', minutesAgo(1.75), minutesAgo(1.75));
      await participantEvent(
        'participant_joined',
        'PA_other',
        minutesAgo(1.5),
        minutesAgo(1.5),
        `${PREFIX}${otherChannelId}`,
      );
      const finished = await send({
        event: 'room_finished',
        room: { name: `${PREFIX}${channelId}` },
        createdAt: seconds(minutesAgo(0.25)),
      });
      expect(finished.status).toBe(200);
      const rows = await rowsOf();
      expect(rows.find((r) => r.voiceConnection === 'PA_room')).toMatchObject({
        participantMinutes: 2,
        endReason: 'room-finished',
      });
      expect(rows.find((r) => r.voiceConnection === 'PA_other')!.endedAt).toBeNull();
    });

    it('bills a connection whose channel was deleted before LiveKit reported it', async () => {
      await clean();
      const gone = (
        (await (
          await owner.request('/api/channels', { method: 'POST', json: { name: 'Gone' } })
        ).json()) as { id: number }
      ).id;
      // Deleted in the database directly: this server's LiveKit URL leads nowhere, so the API would
      // refuse the deletion (the room could not be closed).
      await server.database.db.delete(channels).where(eq(channels.id, gone));
      const joinedAt = minutesAgo(2.5);
      expect(
        (
          await participantEvent(
            'participant_left',
            'PA_gone',
            joinedAt,
            minutesAgo(0.5),
            `${PREFIX}${gone}`,
          )
        ).status,
      ).toBe(200);
      expect(await rowsOf()).toMatchObject([
        { channelId: null, participantMinutes: 2, endReason: 'voice-left' },
      ]);
    });

    it("ignores other deployments' rooms and refuses unsigned or badly signed events", async () => {
      await clean();
      await participantEvent(
        'participant_joined',
        'PA_foreign',
        minutesAgo(2),
        minutesAgo(2),
        `channel-${channelId}`,
      );
      await participantEvent(
        'participant_joined',
        'PA_foreign2',
        minutesAgo(2),
        minutesAgo(2),
        `${PREFIX}x${channelId}`,
      );
      expect(await rowsOf()).toHaveLength(0);
      const forged = await send(
        {
          event: 'participant_joined',
          room: { name: `${PREFIX}${channelId}` },
          participant: { sid: 'PA_f', identity: `${memberId}-1-aa` },
        },
        'not-the-secret-not-the-secret-not-the-secret',
      );
      expect(forged.status).toBe(403);
      const unsigned = await fetch(new URL(LIVEKIT_WEBHOOK_PATH, server.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/webhook+json' },
        body: '{"event":"room_finished"}',
      });
      expect(unsigned.status).toBe(403);
      expect(await rowsOf()).toHaveLength(0);
    });

    it('takes each event once, and only while fresh: a replay is refused and changes nothing', async () => {
      await clean();
      const joinedAt = minutesAgo(1.5);
      const identity = `${memberId}-${joinedAt.getTime()}-c0ffee`;
      await recordIdentity(server.database.db, {
        identity,
        userId: memberId,
        channelId,
        sessionId: memberSession,
      });
      const joined = JSON.stringify({
        id: 'EV_replayed',
        event: 'participant_joined',
        createdAt: seconds(new Date()),
        room: { name: `${PREFIX}${channelId}` },
        participant: { sid: 'PA_replay', identity, joinedAt: seconds(joinedAt) },
      });
      const post = async (body: string) => {
        const token = new AccessToken(KEY, SECRET);
        token.sha256 = createHash('sha256').update(body).digest('base64');
        return fetch(new URL(LIVEKIT_WEBHOOK_PATH, server.baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/webhook+json',
            authorization: await token.toJwt(),
          },
          body,
        });
      };
      expect((await post(joined)).status).toBe(200);
      const left = JSON.stringify({
        id: 'EV_left_once',
        event: 'participant_left',
        createdAt: seconds(new Date()),
        room: { name: `${PREFIX}${channelId}` },
        participant: { sid: 'PA_replay', identity, joinedAt: seconds(joinedAt) },
      });
      expect((await post(left)).status).toBe(200);
      const [closed] = await rowsOf();
      expect(closed).toMatchObject({ voiceConnection: 'PA_replay', endReason: 'voice-left' });
      // Replaying the join would reopen the closed row: refused, the row stays closed.
      expect((await post(joined)).status).toBe(409);
      // A signed event from long ago (captured, then sent again under a new id) is refused too.
      const stale = await send({
        event: 'participant_joined',
        createdAt: seconds(minutesAgo(20)),
        room: { name: `${PREFIX}${channelId}` },
        participant: { sid: 'PA_stale', identity, joinedAt: seconds(minutesAgo(21)) },
      });
      expect(stale.status).toBe(400);
      expect(await rowsOf()).toMatchObject([
        { voiceConnection: 'PA_replay', endedAt: closed!.endedAt },
      ]);
    });

    it("bills nothing for a join the door refused, and answers 200 for a deleted user's events", async () => {
      await clean();
      // Never minted by the token endpoint: removed at its join, and its leave bills nothing.
      const stranger = {
        sid: 'PA_stranger',
        identity: `${memberId}-1-deadbeef`,
        joinedAt: seconds(minutesAgo(1)),
      };
      const room = { name: `${PREFIX}${channelId}` };
      expect(
        (await send({ event: 'participant_joined', room, participant: stranger })).status,
      ).toBe(200);
      expect((await send({ event: 'participant_left', room, participant: stranger })).status).toBe(
        200,
      );
      expect(await rowsOf()).toHaveLength(0);

      const gone = new TestClient(server.baseUrl);
      await signInBuiltIn(gone, { name: 'Gus Gone', email: 'gus@example.com' });
      const goneId = ((await (await gone.request('/api/auth/user')).json()) as { id: string }).id;
      await server.database.db.delete(users).where(eq(users.id, goneId));
      const left = await send({
        event: 'participant_left',
        room,
        participant: {
          sid: 'PA_gone_user',
          identity: `${goneId}-1-abcdef`,
          joinedAt: seconds(minutesAgo(3)),
        },
      });
      expect(left.status).toBe(200);
      expect(
        await server.database.db
          .select()
          .from(usageSessions)
          .where(eq(usageSessions.userId, goneId)),
      ).toEqual([]);
    });
  },
);
