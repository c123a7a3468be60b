import { TestClient, signInBuiltIn } from '../../server/src/testing/http-client.js';
import { testDatabases } from '../../server/src/testing/test-databases.js';
import { startTestServer } from '../../server/src/testing/test-server.js';
import { percentile } from '../stats.js';

/**
 * The cost of the request every screen makes first: GET /api/auth/user with a session cookie
 * (cookie → session lookup → user), over loopback, sequential and 16 in flight.
 */
const SEQUENTIAL = 2000;
const CONCURRENT = 4000;

for (const target of testDatabases()) {
  const database = await target.open();
  const server = await startTestServer(database);
  const client = new TestClient(server.baseUrl);
  await signInBuiltIn(client, { name: 'Bench User', email: 'bench@example.com' });

  const latencies: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    const response = await client.request('/api/auth/user');
    await response.arrayBuffer();
    latencies.push(performance.now() - start);
  }
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < CONCURRENT) await (await client.request('/api/auth/user')).arrayBuffer();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `[${target.name}] GET /api/auth/user: p50 ${percentile(latencies, 50).toFixed(2)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(2)} ms sequential; ${Math.round(CONCURRENT / seconds)} req/s with 16 in flight`,
  );
  await server.close();
  await database.close();
}
