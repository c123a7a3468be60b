import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../../protocol/channels.js';
import { blocks, channelMembers, channels, contacts, invites, users } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  type Person,
  signInOwner,
} from './testing/people.js';

/**
 * Every endpoint of issue 3, as every kind of caller. The channel under test is created fresh for each
 * request by its channel admin, with `member` and `target` in it; `outsider` is in nothing, and is each
 * caller's contact (for the delete row).
 */
const ACTORS = ['guest', 'free', 'nonMember', 'member', 'channelAdmin', 'superadmin'] as const;
type Actor = (typeof ACTORS)[number];

interface Fixture {
  channelId: number;
  self: string;
  memberId: string;
  targetId: string;
  targetEmail: string;
  outsiderId: string;
  inviteToken: string;
}

interface Row {
  method: 'GET' | 'POST' | 'DELETE';
  path: (f: Fixture) => string;
  json?: (f: Fixture) => unknown;
  /** Status codes for guest, free, nonMember, member, channelAdmin, superadmin. */
  statuses: [number, number, number, number, number, number];
  /** GETs that legitimately write (an invite link is stored). */
  writes?: boolean;
  check?: (f: Fixture, actor: Actor, response: unknown) => void;
}

const MISSING = 999_999;
const everyoneSignedIn = (ok: number): Row['statuses'] => [401, ok, ok, ok, ok, ok];

const ROWS: Record<string, Row> = {
  'GET /api/users': { method: 'GET', path: () => '/api/users', statuses: everyoneSignedIn(200) },
  'GET /api/users/{member}/channels': {
    method: 'GET',
    path: (f) => `/api/users/${f.memberId}/channels`,
    statuses: [401, 403, 403, 200, 403, 200],
  },
  'GET /api/channels': {
    method: 'GET',
    path: () => '/api/channels',
    statuses: everyoneSignedIn(200),
    check: (f, actor, response) => {
      const ids = (response as Channel[]).map((c) => c.id);
      // Free users see only their own channels; member tier and above see every channel.
      expect(ids.includes(f.channelId)).toBe(actor !== 'free');
    },
  },
  'POST /api/channels': {
    method: 'POST',
    path: () => '/api/channels',
    json: () => ({ name: 'New' }),
    statuses: [401, 403, 403, 403, 201, 201],
  },
  'DELETE /api/channels/{id}': {
    method: 'DELETE',
    path: (f) => `/api/channels/${f.channelId}`,
    statuses: [401, 403, 403, 403, 200, 200],
  },
  'DELETE /api/channels/{missing}': {
    method: 'DELETE',
    path: () => `/api/channels/${MISSING}`,
    statuses: everyoneSignedIn(404),
  },
  'GET /api/channels/{id}/members': {
    method: 'GET',
    path: (f) => `/api/channels/${f.channelId}/members`,
    statuses: [401, 403, 403, 200, 200, 200],
  },
  'GET /api/channels/{missing}/members': {
    method: 'GET',
    path: () => `/api/channels/${MISSING}/members`,
    statuses: everyoneSignedIn(404),
  },
  'POST /api/channels/{id}/members {outsider}': {
    method: 'POST',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.outsiderId }),
    statuses: [401, 403, 403, 403, 201, 201],
  },
  'POST /api/channels/{id}/members {self}': {
    method: 'POST',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.self }),
    // `member` is free tier: joining by oneself is refused before "already a member" is considered.
    statuses: [401, 403, 201, 403, 409, 201],
  },
  'DELETE /api/channels/{id}/members/{target}': {
    method: 'DELETE',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}`,
    statuses: [401, 403, 403, 403, 200, 200],
  },
  'DELETE /api/channels/{id}/members/{self} (leave)': {
    method: 'DELETE',
    path: (f) => `/api/channels/${f.channelId}/members/${f.self}`,
    statuses: [401, 404, 404, 200, 403, 404],
  },
  'POST /api/channels/{id}/members/{target}/mute': {
    method: 'POST',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/mute`,
    statuses: [401, 403, 403, 403, 200, 200],
  },
  'DELETE /api/channels/{id}/members/{target}/mute': {
    method: 'DELETE',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/mute`,
    statuses: [401, 403, 403, 403, 200, 200],
  },
  'POST /api/channels/{id}/members/{target}/poke': {
    method: 'POST',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/poke`,
    statuses: [401, 403, 403, 200, 200, 403],
  },
  'POST /api/channels/{missing}/members/{target}/poke': {
    method: 'POST',
    path: (f) => `/api/channels/${MISSING}/members/${f.targetId}/poke`,
    statuses: everyoneSignedIn(404),
  },
  'GET /api/muted-users/{id}': {
    method: 'GET',
    path: (f) => `/api/muted-users/${f.channelId}`,
    statuses: [401, 403, 403, 200, 200, 200],
  },
  'GET /api/contacts': {
    method: 'GET',
    path: () => '/api/contacts',
    statuses: everyoneSignedIn(200),
  },
  'POST /api/contacts': {
    method: 'POST',
    path: () => '/api/contacts',
    json: (f) => ({ email: f.targetEmail }),
    statuses: everyoneSignedIn(201),
  },
  'DELETE /api/contacts/{outsider}': {
    method: 'DELETE',
    path: (f) => `/api/contacts/${f.outsiderId}`,
    statuses: everyoneSignedIn(200),
  },
  'GET /api/blocked-users': {
    method: 'GET',
    path: () => '/api/blocked-users',
    statuses: everyoneSignedIn(200),
  },
  'POST /api/users/{outsider}/block': {
    method: 'POST',
    path: (f) => `/api/users/${f.outsiderId}/block`,
    statuses: everyoneSignedIn(200),
  },
  'DELETE /api/users/{outsider}/block': {
    method: 'DELETE',
    path: (f) => `/api/users/${f.outsiderId}/block`,
    statuses: everyoneSignedIn(200),
  },
  'POST /api/users/{outsider}/subscription': {
    method: 'POST',
    path: (f) => `/api/users/${f.outsiderId}/subscription`,
    json: () => ({ subscriptionTier: 'member' }),
    statuses: [401, 403, 403, 403, 403, 200],
  },
  'GET /api/invite/generate?channelId={id}': {
    method: 'GET',
    path: (f) => `/api/invite/generate?channelId=${f.channelId}`,
    statuses: [401, 403, 403, 200, 200, 200],
    writes: true,
  },
  'POST /api/invite/accept': {
    method: 'POST',
    path: () => '/api/invite/accept',
    json: (f) => ({ token: f.inviteToken }),
    statuses: everyoneSignedIn(200),
  },
};

const CASES = Object.entries(ROWS).flatMap(([name, row]) =>
  ACTORS.map((actor, i) => ({ name, row, actor, status: row.statuses[i]! })),
);

describe.each(testDatabases())('authorization of every endpoint on $name', (database) => {
  let server: TestServer;
  let people: Record<Exclude<Actor, 'guest'>, Person>;
  let target: Person, outsider: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    const channelAdmin = await signIn(server, 'Ann Admin', 'ann@example.com');
    const nonMember = await signIn(server, 'Nora Nonmember', 'nora@example.com');
    const member = await signIn(server, 'Mo Member', 'mo@example.com');
    const free = await signIn(server, 'Fred Free', 'fred@example.com');
    target = await signIn(server, 'Tia Target', 'tia@example.com');
    outsider = await signIn(server, 'Otto Outsider', 'otto@example.com');
    await setTier(superadmin, channelAdmin, 'admin');
    await setTier(superadmin, nonMember, 'member');
    people = { free, nonMember, member, channelAdmin, superadmin };
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  /** Everything this endpoints could read or write, in a stable order. */
  async function snapshot() {
    const { db } = server.database;
    return {
      users: await db
        .select({ id: users.id, tier: users.subscriptionTier })
        .from(users)
        .orderBy(asc(users.id)),
      channels: await db.select().from(channels).orderBy(asc(channels.id)),
      members: await db
        .select()
        .from(channelMembers)
        .orderBy(asc(channelMembers.channelId), asc(channelMembers.userId)),
      contacts: await db
        .select()
        .from(contacts)
        .orderBy(asc(contacts.ownerId), asc(contacts.contactId)),
      blocks: await db.select().from(blocks).orderBy(asc(blocks.blockerId), asc(blocks.blockedId)),
      invites: await db.select().from(invites).orderBy(asc(invites.id)),
    };
  }

  async function freshFixture(actor: Actor): Promise<Fixture> {
    const { db } = server.database;
    await db.delete(contacts);
    await db.delete(blocks);
    await db.delete(invites);
    await setTier(people.superadmin, outsider, 'free');
    const admin = people.channelAdmin;
    const channelId = await createChannel(admin, 'Under test');
    await addToChannel(admin, channelId, people.member);
    await addToChannel(admin, channelId, target);
    const self = actor === 'guest' ? outsider.id : people[actor].id;
    if (actor !== 'guest')
      await db.insert(contacts).values({ ownerId: self, contactId: outsider.id });
    const invite = await admin.client.request(`/api/invite/generate?channelId=${channelId}`);
    const inviteToken = new URL(
      (await body<{ inviteUrl: string }>(invite)).inviteUrl,
    ).searchParams.get('invite')!;
    return {
      channelId,
      self,
      memberId: people.member.id,
      targetId: target.id,
      targetEmail: target.email,
      outsiderId: outsider.id,
      inviteToken,
    };
  }

  it.each(CASES)('$name as $actor → $status', async ({ row, actor, status }) => {
    const fixture = await freshFixture(actor);
    const client = actor === 'guest' ? new TestClient(server.baseUrl) : people[actor].client;
    const before = await snapshot();
    const json = row.json?.(fixture);
    const response = await client.request(row.path(fixture), {
      method: row.method,
      ...(json === undefined ? {} : { json }),
    });
    expect(response.status).toBe(status);
    const answer: unknown = await response.json();
    if (status >= 400) {
      // A refusal carries a message (and for channel creation an error) — never data.
      expect(
        Object.keys(answer as object).every((key) => key === 'message' || key === 'error'),
      ).toBe(true);
    }
    if (status >= 400 || (row.method === 'GET' && !row.writes))
      expect(await snapshot()).toEqual(before);
    if (status < 400) row.check?.(fixture, actor, answer);
  });
});
