import { randomUUID } from 'node:crypto';
import { pushPayloadSchema } from '../../protocol/push.js';
import { DeviceKeys, LocalPushService, type ReceivedPush } from '../../server/src/push/testing/local-push-service.js';
import { TestClient, signInBuiltIn } from '../../server/src/testing/http-client.js';
import { testDatabases } from '../../server/src/testing/test-databases.js';
import { startTestServer } from '../../server/src/testing/test-server.js';
import { TestSocket } from '../../server/src/testing/test-socket.js';
import { percentile } from '../stats.js';

/**
 * Push latency: from an event (a call placed on the caller's /ws socket) to the push service
 * receiving the encrypted push for the receiver's closed device (through presence, preferences,
 * blocks, the push_deliveries claim, RFC 8291 encryption and the HTTPS request to a local push
 * service). One call at a time; each is hung up (its "missed call" push awaited) before the next.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const WARM_UP = 10;
/** Two messages a round: at most 20 a second per user on /ws (decision 016), so a round takes ≥ 120 ms. */
const ROUND_MS = 120;

async function signedIn(baseUrl: string, name: string, email: string): Promise<{ client: TestClient; id: string }> {
  const client = new TestClient(baseUrl);
  await signInBuiltIn(client, { name, email });
  const id = ((await (await client.request('/api/auth/user')).json()) as { id: string }).id;
  return { client, id };
}

for (const target of testDatabases()) {
  const pushService = await LocalPushService.start();
  const database = await target.open();
  const server = await startTestServer(database, {}, { pushAgent: pushService.agent });
  const ann = await signedIn(server.baseUrl, 'Ann Caller', 'ann@example.com');
  const bob = await signedIn(server.baseUrl, 'Bob Receiver', 'bob@example.com');
  const device = new DeviceKeys();
  const endpoint = pushService.endpoint();
  const subscribed = await bob.client.request('/api/push/subscribe', { method: 'POST', json: device.subscription(endpoint) });
  if (subscribed.status !== 200) throw new Error(`subscribe: ${subscribed.status}`);
  const caller = await TestSocket.open(ann.client);

  /** The next push to Bob's device of this kind and tag. */
  const arrival = (kind: string, tag: string) =>
    new Promise<ReceivedPush>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kind} push within 15 s`)), 15_000);
      const stop = pushService.onPush((push) => {
        const payload = pushPayloadSchema.parse(JSON.parse(device.decrypt(push.body)));
        if (payload.kind !== kind || payload.tag !== tag) return;
        stop();
        clearTimeout(timer);
        resolve(push);
      });
    });

  const latencies: number[] = [];
  for (let i = 0; i < WARM_UP + EVENTS; i++) {
    const callId = randomUUID();
    const rang = arrival('call', `call-${callId}`);
    const started = performance.now();
    caller.send({ type: 'initiate_call', callId, receiverId: bob.id, roomName: `call-${randomUUID()}` });
    await rang;
    if (i >= WARM_UP) latencies.push(performance.now() - started);
    const missed = arrival('missed-call', `call-${callId}`);
    caller.send({ type: 'call_ended', callId });
    await missed;
    const elapsed = performance.now() - started;
    if (elapsed < ROUND_MS) await new Promise((resolve) => setTimeout(resolve, ROUND_MS - elapsed));
  }
  console.log(
    `[${target.name}] call → push service: p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms over ${EVENTS} calls`,
  );
  await caller.close();
  await server.close();
  await database.close();
  await pushService.close();
}
