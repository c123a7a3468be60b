import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSessions } from '../db/schema.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import {
  eventually,
  joinLivekit,
  listed,
  livekitWithWebhooks,
  requestToken,
  startLivekitTestServer,
  type LivekitTestServer,
} from '../testing/livekit-test-server.js';
import type { LivekitTestParticipant } from '../voice/livekit/testing/livekit-test-participant.js';
import { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import {
  addToChannel,
  createChannel,
  setTier,
  startConversation,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';

/**
 * Who may be in a voice room, door by door: the token endpoint, the built-in SFU's join, LiveKit's
 * join, and a LiveKit rejoin with a token the app minted before a change or one LiveKit refreshed
 * while the actor was connected. Each actor is set up allowed (a member with a token), then the
 * change that makes them who they are happens, then each door is tried.
 */
type Outcome = 'admitted' | 'silenced' | 'refused';

interface Actor {
  name: string;
  billing: 'on' | 'off';
  /** Whether they were ever a member (a non-member never holds a token). */
  member: boolean;
  /**
   * The room is a direct conversation (the admin's with them when a member, else the admin's with
   * the owner) rather than a channel of the admin's.
   */
  direct?: boolean;
  /** The change made after their tokens were minted (and, on LiveKit, after they first joined). */
  change?: (ctx: ChangeContext) => Promise<void>;
  token: number;
  sfu?: Outcome;
  livekitJoin?: Outcome;
  livekitOldToken?: Outcome;
  livekitRefreshedToken?: Outcome;
}

interface ChangeContext {
  server: TestServer;
  admin: Person;
  actor: Person;
  channelId: number;
}

const OVER_ALLOWANCE_MINUTES = 10_500;

const ACTORS: Actor[] = [
  {
    name: 'member',
    billing: 'on',
    member: true,
    token: 200,
    sfu: 'admitted',
    livekitJoin: 'admitted',
    livekitOldToken: 'admitted',
    livekitRefreshedToken: 'admitted',
  },
  {
    name: 'removed member',
    billing: 'on',
    member: true,
    change: async ({ admin, actor, channelId }) => {
      const removal = await admin.client.request(`/api/channels/${channelId}/members/${actor.id}`, {
        method: 'DELETE',
      });
      expect(removal.status).toBe(200);
    },
    token: 403,
    sfu: 'refused',
    livekitOldToken: 'refused',
    livekitRefreshedToken: 'refused',
  },
  { name: 'non-member', billing: 'on', member: false, token: 403 },
  {
    name: 'admin-muted member',
    billing: 'on',
    member: true,
    change: async ({ admin, actor, channelId }) => {
      const mute = await admin.client.request(
        `/api/channels/${channelId}/members/${actor.id}/mute`,
        {
          method: 'POST',
        },
      );
      expect(mute.status).toBe(200);
    },
    token: 200,
    sfu: 'silenced',
    livekitJoin: 'silenced',
    livekitOldToken: 'silenced',
    livekitRefreshedToken: 'silenced',
  },
  ...(['on', 'off'] as const).map((billing): Actor => ({
    name: `over-allowance member, BILLING=${billing}`,
    billing,
    member: true,
    change: async ({ server, actor, channelId }) => {
      await server.database.db.insert(usageSessions).values({
        userId: actor.id,
        channelId,
        startedAt: new Date(Date.now() - 1000),
        endedAt: new Date(),
        participantMinutes: OVER_ALLOWANCE_MINUTES,
      });
    },
    token: billing === 'on' ? 429 : 200,
    sfu: billing === 'on' ? 'refused' : 'admitted',
    livekitJoin: billing === 'on' ? undefined : 'admitted',
    livekitOldToken: billing === 'on' ? 'refused' : 'admitted',
    livekitRefreshedToken: billing === 'on' ? 'refused' : 'admitted',
  })),
  {
    // Blocking keeps two people's audio apart (voice/livekit and the SFU's own tests); it does not
    // keep anyone out of a room.
    name: 'blocked member',
    billing: 'on',
    member: true,
    change: async ({ admin, actor }) => {
      expect(
        (await admin.client.request(`/api/users/${actor.id}/block`, { method: 'POST' })).status,
      ).toBe(200);
    },
    token: 200,
    sfu: 'admitted',
    livekitJoin: 'admitted',
    livekitOldToken: 'admitted',
    livekitRefreshedToken: 'admitted',
  },
  {
    name: 'member of a direct conversation',
    billing: 'on',
    member: true,
    direct: true,
    token: 200,
    sfu: 'admitted',
    // Let in, without the publish right until they take the floor (walkie-talkie).
    livekitJoin: 'silenced',
    livekitOldToken: 'silenced',
    livekitRefreshedToken: 'silenced',
  },
  {
    // In a conversation of two, a block keeps them out: neither starts nor sends one.
    name: 'direct conversation, the other blocked them',
    billing: 'on',
    member: true,
    direct: true,
    change: async ({ admin, actor }) => {
      expect(
        (await admin.client.request(`/api/users/${actor.id}/block`, { method: 'POST' })).status,
      ).toBe(200);
    },
    token: 403,
    sfu: 'refused',
    livekitOldToken: 'refused',
    livekitRefreshedToken: 'refused',
  },
  {
    name: 'direct conversation, they blocked the other',
    billing: 'on',
    member: true,
    direct: true,
    change: async ({ admin, actor }) => {
      expect(
        (await actor.client.request(`/api/users/${admin.id}/block`, { method: 'POST' })).status,
      ).toBe(200);
    },
    token: 403,
    sfu: 'refused',
    livekitOldToken: 'refused',
    livekitRefreshedToken: 'refused',
  },
  // Another pair's conversation: to anyone else it does not exist.
  { name: 'outsider to a direct conversation', billing: 'on', member: false, direct: true, token: 404 },
  {
    name: 'member whose sign-in session ended',
    billing: 'on',
    member: true,
    change: async ({ actor }) => {
      expect((await actor.client.request('/api/logout')).status).toBeLessThan(400);
    },
    token: 401,
    sfu: 'refused',
    livekitOldToken: 'refused',
    livekitRefreshedToken: 'refused',
  },
];

interface Cast {
  server: TestServer;
  admin: Person;
  superadmin: Person;
}

let serial = 0;
/** A fresh user (own session), a channel of the admin's, membership if the actor is a member. */
async function setUpActor(
  cast: Cast,
  actor: Actor,
): Promise<{ person: Person; channelId: number }> {
  serial++;
  const person = await signIn(cast.server, `Actor ${serial}`, `actor${serial}@example.com`);
  if (actor.direct) {
    const channelId = await startConversation(cast.admin, actor.member ? person : cast.superadmin);
    return { person, channelId };
  }
  const channelId = await createChannel(cast.admin, `Doors ${serial}`);
  if (actor.member) await addToChannel(cast.admin, channelId, person);
  return { person, channelId };
}

/** The server's owner and a channel admin. */
async function castOf(server: TestServer): Promise<Cast> {
  const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
  const admin = await signIn(server, 'Ada Admin', 'ada@example.com');
  await setTier(superadmin, admin, 'admin');
  return { server, admin, superadmin };
}

describe.each(testDatabases().slice(0, 1))(
  'who may be in a voice room: the built-in SFU ($name)',
  (database) => {
    const casts = new Map<'on' | 'off', Cast>();
    beforeAll(async () => {
      for (const billing of ['on', 'off'] as const)
        casts.set(
          billing,
          await castOf(await startTestServer(await database.open(), { BILLING: billing })),
        );
    });
    afterAll(async () => {
      for (const cast of casts.values()) {
        await cast.server.close();
        await cast.server.database.close();
      }
    });

    const sfuJoin = async (server: TestServer, token: string) =>
      WeriftVoiceClient.join(`${server.baseUrl.replace('http', 'ws')}/rtc`, token);

    it.each(ACTORS)('$name: token $token, SFU join $sfu', async (actor) => {
      const cast = casts.get(actor.billing)!;
      const { person, channelId } = await setUpActor(cast, actor);
      const before = actor.member ? await requestToken(cast.server, person, channelId) : undefined;
      if (before) expect(before.status).toBe(200);
      await actor.change?.({ server: cast.server, admin: cast.admin, actor: person, channelId });
      expect((await requestToken(cast.server, person, channelId)).status).toBe(actor.token);
      if (!before || !actor.sfu) return; // never a member: no token to try at the SFU

      // The admin watches for the actor's mute; not where a block keeps the admin out too.
      const watching = (await requestToken(cast.server, cast.admin, channelId)).token;
      const observer = watching ? await sfuJoin(cast.server, watching) : undefined;
      const voice = await sfuJoin(cast.server, before.token!);
      try {
        let outcome: Outcome;
        if (voice.closeCode !== undefined || !voice.joined) outcome = 'refused';
        else if (!observer) outcome = 'admitted';
        else {
          const silenced = () =>
            observer.messages.some(
              (m) => m.type === 'publisher_muted' && m.userId === person.id && m.muted,
            );
          await observer.waitFor(silenced, 1000).catch(() => undefined);
          outcome = silenced() ? 'silenced' : 'admitted';
        }
        expect(outcome).toBe(actor.sfu);
      } finally {
        await voice.close();
        await observer?.close();
      }
    });
  },
);

describe.runIf(livekitWithWebhooks)('who may be in a voice room: LiveKit', () => {
  const casts = new Map<'on' | 'off', Cast & { server: LivekitTestServer }>();
  const participants: LivekitTestParticipant[] = [];
  beforeAll(async () => {
    for (const billing of ['on', 'off'] as const) {
      const server = await startLivekitTestServer(await testDatabases()[0]!.open(), {
        BILLING: billing,
      });
      casts.set(billing, { ...(await castOf(server)), server });
    }
  });
  afterAll(async () => {
    await Promise.all(participants.map((p) => p.close()));
    for (const cast of casts.values()) {
      await cast.server.stop();
      await cast.server.database.close();
    }
  });

  const join = async (token: string) => {
    const participant = await joinLivekit(token);
    participants.push(participant);
    return participant;
  };
  /** What the app's join webhook decided: removed, or let in with or without the publish right. */
  const outcomeOf = async (
    server: LivekitTestServer,
    channelId: number,
    participant: LivekitTestParticipant,
  ): Promise<Outcome> => {
    const metered = async () =>
      (
        await server.database.db
          .select()
          .from(usageSessions)
          .where(eq(usageSessions.voiceConnection, participant.sid))
      ).length > 0;
    await eventually(async () => participant.closed || (await metered()), 'the join webhook');
    if (participant.closed) {
      await eventually(
        async () => !(await listed(server, channelId, participant.identity)),
        'removed from the room',
      );
      return 'refused';
    }
    const info = await listed(server, channelId, participant.identity);
    if (!info) return 'refused';
    return info.permission?.canPublish ? 'admitted' : 'silenced';
  };

  it.each(ACTORS.filter((a) => a.member))(
    '$name: LiveKit join $livekitJoin, old token $livekitOldToken, refreshed token $livekitRefreshedToken',
    async (actor) => {
      const cast = casts.get(actor.billing)!;
      const { server } = cast;
      const { person, channelId } = await setUpActor(cast, actor);
      const oldToken = (await requestToken(server, person, channelId)).token!;
      // Connected before the change: LiveKit hands this connection a refreshed token.
      const first = await join((await requestToken(server, person, channelId)).token!);
      // A direct conversation is walkie-talkie: on LiveKit, nobody publishes before taking the floor.
      expect(await outcomeOf(server, channelId, first)).toBe(actor.direct ? 'silenced' : 'admitted');
      await first.waitFor(() => first.refreshedToken !== undefined, 10_000, 'a refreshed token');
      const refreshed = first.refreshedToken!;
      await actor.change?.({ server, admin: cast.admin, actor: person, channelId });
      await first.close();

      const fresh = await requestToken(server, person, channelId);
      expect(fresh.status).toBe(actor.token);
      if (actor.livekitJoin)
        expect(await outcomeOf(server, channelId, await join(fresh.token!))).toBe(
          actor.livekitJoin,
        );
      else expect(fresh.token).toBeUndefined();
      expect(await outcomeOf(server, channelId, await join(oldToken))).toBe(actor.livekitOldToken);
      expect(await outcomeOf(server, channelId, await join(refreshed))).toBe(
        actor.livekitRefreshedToken,
      );
    },
  );
});
