import { createPublicKey, verify } from 'node:crypto';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PUSH_NOT_SUBSCRIBED_MESSAGE,
  PUSH_SUBSCRIPTIONS_PER_USER,
  pushPublicKeySchema,
  pushPayloadSchema,
} from '../../../protocol/push.js';
import { pushSubscriptions } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { body, signIn, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { DeviceKeys, LocalPushService, type ReceivedPush } from './testing/local-push-service.js';
import { loadVapidKeys } from './vapid-keys.js';

/** The VAPID JWT a push service checks (RFC 8292): signed by the key in `k=`, for its own origin. */
function vapidClaims(push: ReceivedPush): { key: string; claims: { aud: string; exp: number; sub: string } } {
  const header = String(push.headers.authorization);
  const [, jwt, key] = /^vapid t=([^,]+), k=(.+)$/.exec(header) ?? [];
  const [head, payload, signature] = jwt!.split('.');
  const point = Buffer.from(key!, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify('sha256', Buffer.from(`${head}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
  expect(valid).toBe(true);
  return { key: key!, claims: JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { aud: string; exp: number; sub: string } };
}

describe.each(testDatabases())('Web Push on $name', (database) => {
  let server: TestServer;
  let pushService: LocalPushService;
  let ann: Person, bob: Person;
  let raceKeys: string[];

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    const handle = await database.open();
    // Instances starting at once on an empty table: every one ends with the same pair.
    const config = { keys: undefined, subject: 'mailto:ops@example.com' };
    raceKeys = (await Promise.all([1, 2, 3, 4].map(() => loadVapidKeys(handle.db, config)))).map((k) => k.publicKey);
    server = await startTestServer(handle, {}, { pushAgent: pushService.agent });
    ann = await signIn(server, 'Ann A', 'ann@example.com');
    bob = await signIn(server, 'Bob B', 'bob@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
    await pushService.close();
  });
  beforeEach(() => {
    pushService.received.length = 0;
    pushService.answers.clear();
  });

  const post = (person: Person | TestClient, path: string, json: unknown, headers: Record<string, string> = {}) =>
    ('client' in person ? person.client : person).request(path, { method: 'POST', json, headers });
  const rowsOf = (userId: string) =>
    server.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  const subscribe = async (person: Person | TestClient, device = new DeviceKeys(), endpoint = pushService.endpoint()) => {
    const subscription = device.subscription(endpoint);
    const response = await post(person, '/api/push/subscribe', subscription);
    expect(response.status).toBe(200);
    return { device, endpoint };
  };

  it('hands out one VAPID public key, the same for instances that made theirs at the same moment', async () => {
    expect(new Set(raceKeys).size).toBe(1);
    const response = await ann.client.request('/api/push/public-key');
    expect(response.status).toBe(200);
    const { publicKey } = pushPublicKeySchema.parse(await response.json());
    expect(publicKey).toBe(raceKeys[0]);
    expect((await new TestClient(server.baseUrl).request('/api/push/public-key')).status).toBe(401);
  });

  it('sends a test notification the device decrypts, signed with that key, with TTL, urgency and topic', async () => {
    const { device, endpoint } = await subscribe(ann);
    const response = await post(ann, '/api/push/test', { endpoint });
    expect(response.status).toBe(200);
    expect(pushService.received).toHaveLength(1);
    const push = pushService.received[0]!;
    expect(push.path).toBe(new URL(endpoint).pathname);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers).toMatchObject({ ttl: '60', urgency: 'normal', topic: 'chirp-test' });
    const payload = pushPayloadSchema.strict().parse(JSON.parse(device.decrypt(push.body)));
    expect(payload).toEqual({ kind: 'test', title: 'Chirp', body: 'Notifications work on this device', tag: 'chirp-test', url: '/settings' });
    const { key, claims } = vapidClaims(push);
    expect(key).toBe(raceKeys[0]);
    expect(claims.aud).toBe(pushService.url);
    expect(claims.sub).toBe('mailto:chirp@127.0.0.1');
    // Another person's device is not theirs to test: the user is the session's, never the body's.
    const theirs = await post(bob, '/api/push/test', { endpoint });
    expect(theirs.status).toBe(404);
    expect(await body(theirs)).toEqual({ message: PUSH_NOT_SUBSCRIBED_MESSAGE });
    expect(pushService.received).toHaveLength(1);
  });

  it('refuses a subscription that is not https, has keys of the wrong length, comes from another site, or no one', async () => {
    const good = new DeviceKeys().subscription(pushService.endpoint());
    const bad = [
      { ...good, endpoint: good.endpoint.replace('https:', 'http:') },
      { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(1) } },
      { ...good, keys: { ...good.keys, auth: `${good.keys.auth}AA` } },
      { ...good, keys: { ...good.keys, auth: good.keys.auth.replace(/.$/, '!') } },
      { endpoint: good.endpoint },
    ];
    for (const subscription of bad) expect((await post(ann, '/api/push/subscribe', subscription)).status).toBe(400);
    expect((await post(ann, '/api/push/subscribe', good, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(new TestClient(server.baseUrl), '/api/push/subscribe', good)).status).toBe(401);
    expect((await rowsOf(ann.id)).map((r) => r.endpoint)).not.toContain(good.endpoint);
  });

  it.each([404, 410])('deletes a subscription its push service answers %i for, and only that one', async (status) => {
    const gone = await subscribe(bob);
    const kept = await subscribe(bob);
    pushService.answers.set(new URL(gone.endpoint).pathname, status);
    const response = await post(bob, '/api/push/test', { endpoint: gone.endpoint });
    expect(response.status).toBe(404);
    expect(pushService.received).toHaveLength(1);
    const endpoints = (await rowsOf(bob.id)).map((r) => r.endpoint);
    expect(endpoints).toContain(kept.endpoint);
    expect(endpoints).not.toContain(gone.endpoint);
  });

  it('sends one message to each of a person’s devices, each decrypting it with its own keys; a 410 drops only that device', async () => {
    const gus = await signIn(server, 'Gus G', 'gus@example.com');
    const devices = [await subscribe(gus), await subscribe(gus), await subscribe(gus)];
    pushService.answers.set(new URL(devices[2]!.endpoint).pathname, 410);
    const payload = { kind: 'test', title: 'Chirp', body: 'Hello', tag: 'hello', url: '/' } as const;
    await server.app.ctx.push.sendToUser(gus.id, payload, { ttlSeconds: 30, urgency: 'high', topic: 'hello' });
    expect(pushService.received.map((p) => p.path).sort()).toEqual(devices.map((d) => new URL(d.endpoint).pathname).sort());
    for (const { device, endpoint } of devices) {
      const push = pushService.received.find((p) => p.path === new URL(endpoint).pathname)!;
      expect(push.headers).toMatchObject({ ttl: '30', urgency: 'high', topic: 'hello' });
      expect(JSON.parse(device.decrypt(push.body))).toEqual(payload);
    }
    expect((await rowsOf(gus.id)).map((r) => r.endpoint).sort()).toEqual([devices[0]!.endpoint, devices[1]!.endpoint].sort());
  });

  it('keeps a subscription whose push service fails for now (500), and says the test did not go through', async () => {
    const { endpoint } = await subscribe(bob);
    pushService.answers.set(new URL(endpoint).pathname, 500);
    const response = await post(bob, '/api/push/test', { endpoint });
    expect(response.status).toBe(502);
    expect((await rowsOf(bob.id)).map((r) => r.endpoint)).toContain(endpoint);
  });

  it('turns a device off: unsubscribe removes it, only for its owner', async () => {
    const { endpoint } = await subscribe(ann);
    expect((await post(bob, '/api/push/unsubscribe', { endpoint })).status).toBe(200);
    expect((await rowsOf(ann.id)).map((r) => r.endpoint)).toContain(endpoint);
    expect((await post(ann, '/api/push/unsubscribe', { endpoint })).status).toBe(200);
    expect((await rowsOf(ann.id)).map((r) => r.endpoint)).not.toContain(endpoint);
    expect((await post(ann, '/api/push/test', { endpoint })).status).toBe(404);
    expect(pushService.received).toHaveLength(0);
  });

  it(`keeps at most ${PUSH_SUBSCRIPTIONS_PER_USER} devices a person, the least recently used making room`, async () => {
    const cy = await signIn(server, 'Cy C', 'cy@example.com');
    const endpoints: string[] = [];
    for (let i = 0; i <= PUSH_SUBSCRIPTIONS_PER_USER; i++) endpoints.push((await subscribe(cy)).endpoint);
    const kept = (await rowsOf(cy.id)).map((r) => r.endpoint);
    expect(kept.sort()).toEqual(endpoints.slice(1).sort());
  });

  it('logout removes the subscriptions made in that sign-in session, not those of the person’s other sessions', async () => {
    const dee = await signIn(server, 'Dee D', 'dee@example.com');
    const phone = await signIn(server, 'Dee D', 'dee@example.com');
    expect(phone.id).toBe(dee.id);
    const here = await subscribe(dee);
    const there = await subscribe(phone);
    expect((await dee.client.request('/api/logout')).status).toBeLessThan(400);
    expect((await dee.client.request('/api/auth/user')).status).toBe(401);
    expect((await rowsOf(dee.id)).map((r) => r.endpoint)).toEqual([there.endpoint]);
    expect((await post(phone, '/api/push/test', { endpoint: here.endpoint })).status).toBe(404);
  });

  it('account deletion removes every device of that person', async () => {
    const eve = await signIn(server, 'Eve E', 'eve@example.com');
    const laptop = await signIn(server, 'Eve E', 'eve@example.com');
    await subscribe(eve);
    await subscribe(laptop);
    expect(await rowsOf(eve.id)).toHaveLength(2);
    const deleted = await eve.client.request('/api/account', { method: 'DELETE', json: { password: 'correct horse battery' } });
    expect(deleted.status).toBe(200);
    expect(await rowsOf(eve.id)).toHaveLength(0);
  });
});

describe('VAPID keys from the environment', () => {
  it('signs with VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY and VAPID_SUBJECT when they are set', async () => {
    const [database] = testDatabases();
    const keys = webpush.generateVAPIDKeys();
    const pushService = await LocalPushService.start();
    const server = await startTestServer(
      await database!.open(),
      { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@example.com' },
      { pushAgent: pushService.agent },
    );
    try {
      const fay = await signIn(server, 'Fay F', 'fay@example.com');
      expect(await body(await fay.client.request('/api/push/public-key'))).toEqual({ publicKey: keys.publicKey });
      const device = new DeviceKeys();
      const endpoint = pushService.endpoint();
      expect((await post(fay, '/api/push/subscribe', device.subscription(endpoint))).status).toBe(200);
      expect((await post(fay, '/api/push/test', { endpoint })).status).toBe(200);
      const { key, claims } = vapidClaims(pushService.received[0]!);
      expect(key).toBe(keys.publicKey);
      expect(claims.sub).toBe('mailto:ops@example.com');
    } finally {
      await server.close();
      await server.database.close();
      await pushService.close();
    }
  });

  const post = (person: Person, path: string, json: unknown) => person.client.request(path, { method: 'POST', json });
});
