import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushPublicKeySchema } from '../../../protocol/push.js';
import { openDatabase } from '../db/database.js';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { SHARED_SESSION_SECRET, scratchPostgres, type ScratchPostgres } from '../testing/two-instances.js';
import { DeviceKeys, LocalPushService } from './testing/local-push-service.js';

const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * Two instances on one fresh PostgreSQL database, started at the same moment with no VAPID keys set:
 * both hand out the same public key, and a device that subscribed through one gets pushes the other
 * signed with that key. Runs when TEST_DATABASE_URL is set.
 */
describe.runIf(databaseUrl)('Web Push keys across two instances', () => {
  let database: ScratchPostgres | undefined;
  let a: TestServer;
  let b: TestServer;
  let pushService: LocalPushService;

  beforeAll(async () => {
    pushService = await LocalPushService.start();
    database = await scratchPostgres(databaseUrl!, 'push');
    const env = { SESSION_SECRET: SHARED_SESSION_SECRET };
    // Migrated one after the other, as a rolling start would; the servers then start together.
    const first = await openDatabase({ url: database.url, dataDir: '/tmp' });
    const second = await openDatabase({ url: database.url, dataDir: '/tmp' });
    [a, b] = await Promise.all([
      startTestServer(first, env, { pushAgent: pushService.agent }),
      startTestServer(second, env, { pushAgent: pushService.agent }),
    ]);
  });

  afterAll(async () => {
    for (const server of [a, b]) {
      await server?.close();
      await server?.database.close();
    }
    await pushService?.close();
    await database?.drop();
  });

  it('both sign with the one key pair, so a device subscribed through A receives what B sends', async () => {
    const onA = new TestClient(a.baseUrl);
    await signInBuiltIn(onA, { name: 'Hal H', email: `hal.${randomBytes(3).toString('hex')}@example.com` });
    const onB = new TestClient(b.baseUrl);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);

    const keyOf = async (client: TestClient) =>
      pushPublicKeySchema.parse(await (await client.request('/api/push/public-key')).json()).publicKey;
    const [keyA, keyB] = [await keyOf(onA), await keyOf(onB)];
    expect(keyB).toBe(keyA);

    const device = new DeviceKeys();
    const endpoint = pushService.endpoint();
    expect((await onA.request('/api/push/subscribe', { method: 'POST', json: device.subscription(endpoint) })).status).toBe(200);
    expect((await onB.request('/api/push/test', { method: 'POST', json: { endpoint } })).status).toBe(200);
    const [push] = pushService.received;
    expect(String(push!.headers.authorization)).toMatch(new RegExp(`, k=${keyA}$`));
    expect(JSON.parse(device.decrypt(push!.body))).toMatchObject({ kind: 'test', title: 'Chirp' });
  });
});
