import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorState } from '../../../protocol/floor.js';
import type { SosAlert } from '../../../protocol/sos.js';
import { TestClient } from '../testing/http-client.js';
import { channelMembers, channels } from '../db/schema.js';
import { signIn, type Person } from '../testing/people.js';
import type { TestServer } from '../testing/test-server.js';
import { startTwoInstances, type TwoInstances } from '../testing/two-instances.js';
import { TestSocket } from '../testing/test-socket.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two instances on one PostgreSQL database and one Redis (decision 050): an alert raised on one
 * reaches members connected to the other, and an SOS queued on one goes on the air when the SOS
 * raised on the other ends there (the queue retries at the first one's expiry). Runs when
 * TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
describe.runIf(databaseUrl && redisUrl)('Family SOS across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  let instances: TwoInstances | undefined;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    instances = await startTwoInstances({ databaseUrl: databaseUrl!, label: 'sos', redisUrl: redisUrl! });
    ({ a, b } = instances);
  });
  afterAll(async () => {
    for (const socket of sockets) await socket.close();
    await instances?.close();
  });

  /** The person's session, used through the other instance (a load balancer may send it anywhere). */
  const through = (server: TestServer, person: Person): TestClient => {
    const client = new TestClient(server.baseUrl);
    for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
    return client;
  };

  it("alerts members on the other instance, and a queued SOS follows the other instance's SOS on the air", async () => {
    const owen = await signIn(a, 'Owen O', 'owen@example.com');
    const bea = await signIn(a, 'Bea B', 'bea@example.com');
    const cal = await signIn(a, 'Cal C', 'cal@example.com');
    // Owen's channel (written straight to the database: both instances share it).
    const { db } = a.database;
    const [channel] = await db.insert(channels).values({ name: 'Family', createdBy: owen.id }).returning();
    const channelId = channel!.id;
    await db.insert(channelMembers).values([
      { channelId, userId: owen.id, role: 'admin' },
      { channelId, userId: bea.id },
      { channelId, userId: cal.id },
    ]);
    const put = (path: string, json: unknown) => owen.client.request(path, { method: 'PUT', json });
    expect((await put(`/api/channels/${channelId}/talk-mode`, { talkMode: 'walkie' })).status).toBe(200);
    expect((await put(`/api/channels/${channelId}/sos`, { sos: true, sosSeconds: 5 })).status).toBe(200);
    // Owen watches the channel, and Cal has Chirp open, both through B.
    const watcher = await TestSocket.open(through(b, owen));
    const calSocket = await TestSocket.open(through(b, cal));
    sockets.push(watcher, calSocket);
    watcher.send({ type: 'join_channel', channelId, userId: owen.id });

    const first = (await (await bea.client.request('/api/sos', { method: 'POST', json: { channelId } })).json()) as SosAlert;
    await calSocket.next((m: { type: string; alert?: SosAlert }) => m.type === 'sos_alert' && m.alert?.id === first.id);
    await watcher.next((m: FloorState) => m.type === 'floor_state' && m.holder?.id === bea.id && m.sos === true);

    const queued = await through(b, cal).request('/api/sos', { method: 'POST', json: { channelId } });
    expect(queued.status).toBe(201);
    const second = (await queued.json()) as SosAlert;
    expect(second.talkUntil).toBeGreaterThanOrEqual(first.talkUntil + 4_000);
    expect(await b.app.ctx.floor.currentHolderId(channelId)).toBe(bea.id);

    // Bea's SOS ends on A; B learns it at the first one's expiry at the latest and puts Cal on the air.
    expect((await bea.client.request(`/api/sos/${first.id}/resolve`, { method: 'POST' })).status).toBe(200);
    const onAir = await watcher.next(
      (m: FloorState) => m.type === 'floor_state' && m.holder?.id === cal.id && m.sos === true,
      15_000,
    );
    expect(onAir.expiresAt).toBeGreaterThan(Date.now());
    expect((await through(b, cal).request(`/api/sos/${second.id}/resolve`, { method: 'POST' })).status).toBe(200);
  });
});
