import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { resolveConfig } from '../../server/src/config/config.js';
import { parseEnv } from '../../server/src/config/env.js';
import { openDatabase } from '../../server/src/db/database.js';
import { seedFuzzTarget } from '../../server/src/testing/fuzz/fuzz-setup.js';
import { fuzzSockets } from '../../server/src/testing/fuzz/socket-fuzzer.js';
import { percentile } from '../stats.js';

/**
 * The socket fuzzer at length: ≥ 100,000 random and mutated frames over `/ws`,
 * `/ws/webrtc` and `/rtc` against a real server on the embedded database. Prints throughput, the
 * server's memory before and after, and /healthz latency while it runs.
 * Usage: npm run bench fuzz [frames] [seed]
 */
const frames = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? Date.now() % 100_000);

const dataDir = mkdtempSync(join(tmpdir(), 'chirp-fuzz-'));
const config = resolveConfig(
  parseEnv({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:1' }),
);
const database = await openDatabase({ url: undefined, dataDir });
const app = await buildApp({ config, database, serveClient: false, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const unhandled: unknown[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(reason));

const target = await seedFuzzTarget(database.db, {
  baseUrl,
  sessionSecret: config.sessionSecret,
  users: 20,
});
global.gc?.();
const before = process.memoryUsage();
const health: number[] = [];
let probing = true;
const probe = (async () => {
  while (probing) {
    const started = performance.now();
    await fetch(`${baseUrl}/healthz`);
    health.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();
const started = performance.now();
const stats = await fuzzSockets(target, { frames, seed, workers: 16 });
const seconds = (performance.now() - started) / 1000;
probing = false;
await probe;
await new Promise((resolve) => setTimeout(resolve, 2000));
global.gc?.();
const after = process.memoryUsage();
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `socket fuzz: ${stats.frames} frames (seed ${seed}) in ${seconds.toFixed(1)} s = ${(stats.frames / seconds).toFixed(0)} frames/s`,
);
console.log(
  `  by socket: ${JSON.stringify(stats.byRoute)}; sockets opened ${stats.socketsOpened}; close codes ${JSON.stringify(stats.closeCodes)}`,
);
console.log(
  `  /healthz while fuzzing: p50 ${percentile(health, 50).toFixed(1)} ms, p99 ${percentile(health, 99).toFixed(1)} ms`,
);
console.log(
  `  memory: RSS ${mb(before.rss)} → ${mb(after.rss)} MB, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB`,
);
console.log(
  `  open sockets left: ${app.ctx.sockets.size}; unhandled rejections: ${unhandled.length}`,
);
const healthy = (await fetch(`${baseUrl}/healthz`)).status === 200;
console.log(`  server up afterwards: ${healthy}`);
await app.close();
await database.close();
process.exit(healthy && unhandled.length === 0 ? 0 : 1);
