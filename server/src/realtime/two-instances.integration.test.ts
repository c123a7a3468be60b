import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberUpdate } from '../../../protocol/sockets.js';
import { RedisPresenceStore } from '../presence/redis-presence-store.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import type { TestServer } from '../testing/test-server.js';
import { startTwoInstances, type TwoInstances } from '../testing/two-instances.js';
import { TestSocket } from '../testing/test-socket.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two server instances on one PostgreSQL and one Redis behave as one. Needs both services, so it runs
 * when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets them).
 */
describe.runIf(databaseUrl && redisUrl)('two instances on PostgreSQL and Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let instances: TwoInstances | undefined;
  let prefix = '';

  beforeAll(async () => {
    instances = await startTwoInstances({ databaseUrl: databaseUrl!, label: 'two', redisUrl: redisUrl! });
    ({ a, b } = instances);
    prefix = instances.prefix;
  });

  afterAll(async () => {
    await instances?.close();
  });

  it('shows a member on instance B going online and talking to a user on instance A, and pokes cross', async () => {
    const owner = new TestClient(a.baseUrl);
    await signInBuiltIn(owner, { name: 'Ann Alpha', email: 'ann@example.com' });
    // Instance B started last: its setup code replaced A's.
    await claimServer(b, owner);
    const bea = new TestClient(b.baseUrl);
    await signInBuiltIn(bea, { name: 'Bea Beta', email: 'bea@example.com' });
    const beaId = ((await (await bea.request('/api/auth/user')).json()) as { id: string }).id;
    const ownerId = ((await (await owner.request('/api/auth/user')).json()) as { id: string }).id;
    const channel = (await (await owner.request('/api/channels', { method: 'POST', json: { name: 'Across' } })).json()) as { id: number };
    await owner.request(`/api/channels/${channel.id}/members`, { method: 'POST', json: { userId: beaId } });

    const watcher = await TestSocket.open(owner);
    watcher.send({ type: 'join_channel', channelId: channel.id });
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === ownerId && m.member.isActiveInChannel);

    const talker = await TestSocket.open(bea);
    talker.send({ type: 'join_channel', channelId: channel.id });
    talker.send({ type: 'start_talking', channelId: channel.id });
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === beaId && m.member.isTalking);

    // REST on instance A reads presence held by instance B.
    const members = (await (await owner.request(`/api/channels/${channel.id}/members`)).json()) as MemberUpdate['member'][];
    expect(members.find((m) => m.id === beaId)).toMatchObject({ isOnline: true, isActiveInChannel: true, isTalking: true });

    // A poke sent through instance A reaches Bea's socket on instance B.
    expect((await owner.request(`/api/channels/${channel.id}/members/${beaId}/poke`, { method: 'POST' })).status).toBe(200);
    const poke = await talker.next<{ type: string; from: { id: string } }>((m) => m.type === 'poke');
    expect(poke.from.id).toBe(ownerId);

    await talker.close();
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === beaId && !m.member.isOnline);

    // Bea gains a channel through instance A while online on B: B reads her channels again when she leaves.
    const again = await TestSocket.open(bea);
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === beaId && m.member.isOnline);
    const later = (await (await owner.request('/api/channels', { method: 'POST', json: { name: 'Later' } })).json()) as { id: number };
    await owner.request(`/api/channels/${later.id}/members`, { method: 'POST', json: { userId: beaId } });
    watcher.send({ type: 'join_channel', channelId: later.id });
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.channelId === later.id && m.member.id === ownerId);
    await again.close();
    await watcher.next<MemberUpdate>(
      (m) => m.type === 'member_update' && m.channelId === later.id && m.member.id === beaId && !m.member.isOnline,
    );
    await watcher.close();
  });

  it("expires the presence of a crashed instance and reports who was on it", async () => {
    const redis = new Redis(redisUrl!);
    const crashedId = `crashed-${randomBytes(4).toString('hex')}`;
    const ns = `${prefix}crash:`;
    // What a crashed instance leaves behind: its users, and a heartbeat that stopped 31 s ago.
    await redis.hset(`${ns}presence:${crashedId}`, 'user-on-crashed', JSON.stringify({ channels: { '1': { talking: true } } }));
    await redis.zadd(`${ns}instances`, Date.now() - 31_000, crashedId);
    const survivor = new RedisPresenceStore(redisUrl!, ns, () => undefined);
    try {
      expect((await survivor.read(['user-on-crashed'])).size).toBe(0);
      expect(await survivor.reapDeadInstances()).toEqual(['user-on-crashed']);
      expect(await survivor.reapDeadInstances()).toEqual([]);
      expect(await redis.exists(`${ns}presence:${crashedId}`)).toBe(0);
    } finally {
      await survivor.close();
      await redis.quit();
    }
  });
});
