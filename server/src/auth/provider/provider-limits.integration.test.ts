import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcPayloads, rateLimits, sessions, users } from '../../db/schema.js';
import { runHousekeeping } from '../../housekeeping/housekeeping.js';
import { TestClient } from '../../testing/http-client.js';
import { testDatabases } from '../../testing/test-databases.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { INTERNAL_HEADER, internalKey } from '../internal-request.js';

const statuses = async (count: number, send: (i: number) => Promise<Response>) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await send(i)).status);
  return seen;
};
const randomAddress = () => `10.${randomBytes(3).join('.')}`;

describe.each(testDatabases())('limits in front of the built-in provider on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('stops a flood of authorization requests before it grows the provider tables', async () => {
    const client = new TestClient(server.baseUrl);
    const authorize = () => client.request('/oidc/auth?client_id=chirp-web&response_type=code&scope=openid');
    const seen = await statuses(60, authorize);
    expect(seen).not.toContain(429);
    const rows = (await server.database.db.select().from(oidcPayloads)).length;
    const after = await statuses(40, authorize);
    expect(after.every((status) => status === 429)).toBe(true);
    expect((await server.database.db.select().from(oidcPayloads)).length).toBe(rows);
    // The server's own back-channel calls prove themselves with the internal key and pass.
    const internal = await client.request('/oidc/auth?client_id=chirp-web', {
      headers: { [INTERNAL_HEADER]: internalKey(server.config.sessionSecret) },
    });
    expect(internal.status).not.toBe(429);
    const forged = await client.request('/oidc/auth?client_id=chirp-web', { headers: { [INTERNAL_HEADER]: 'guess' } });
    expect(forged.status).toBe(429);
  });
});

describe.each(testDatabases())('the sign-in form limit without TRUST_PROXY on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('is not escaped by a rotating X-Forwarded-For', async () => {
    const client = new TestClient(server.baseUrl);
    const { visited } = await client.follow('/api/login');
    const form = visited.at(-1)!;
    const post = () =>
      client.request(form, {
        method: 'POST',
        body: new URLSearchParams({ name: '', email: 'not-an-email', password: 'x' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': randomAddress() },
      });
    const seen = await statuses(61, post);
    expect(seen.slice(0, 60).every((status) => status === 400)).toBe(true);
    expect(seen[60]).toBe(429);
  });
});

describe.each(testDatabases())('the sign-in form limit with TRUST_PROXY=true on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open(), { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('counts the address the proxy saw, not what the client wrote before it', async () => {
    const client = new TestClient(server.baseUrl);
    const { visited } = await client.follow('/api/login', { headers: { 'x-forwarded-for': '198.51.100.1' } });
    const form = visited.at(-1)!;
    const post = (realClient: string) => fetchForm(form, `${randomAddress()}, ${realClient}`);
    const fetchForm = (url: string, forwardedFor: string) =>
      client.request(url, {
        method: 'POST',
        body: new URLSearchParams({ name: '', email: 'not-an-email', password: 'x' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      });
    const attacker = await statuses(61, () => post('198.51.100.7'));
    expect(attacker[60]).toBe(429);
    // Another real client behind the same proxy is not affected.
    expect((await post('198.51.100.8')).status).not.toBe(429);
  });
});

describe.each(testDatabases())('housekeeping on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('deletes expired provider rows, sessions and counters, and keeps live ones', async () => {
    const { db } = server.database;
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const [user] = await db.insert(users).values({ issuer: 'https://id.example', subject: 'hk' }).returning();
    await db.insert(sessions).values([
      { idHash: 'old', userId: user!.id, expiresAt: past },
      { idHash: 'live', userId: user!.id, expiresAt: future },
    ]);
    await db.insert(oidcPayloads).values([
      { id: 'old', kind: 'Interaction', payload: {}, expiresAt: past },
      { id: 'live', kind: 'Interaction', payload: {}, expiresAt: future },
    ]);
    await db.insert(rateLimits).values([
      { key: 'old', points: 3, expire: past },
      { key: 'live', points: 3, expire: future },
    ]);
    await runHousekeeping(db);
    expect((await db.select().from(sessions)).map((r) => r.idHash)).toEqual(['live']);
    expect((await db.select().from(oidcPayloads)).map((r) => r.id)).toContain('live');
    expect((await db.select().from(oidcPayloads)).map((r) => r.id)).not.toContain('old');
    expect((await db.select().from(rateLimits)).map((r) => r.key)).toContain('live');
    expect((await db.select().from(rateLimits)).map((r) => r.key)).not.toContain('old');
  });
});
