/**
 * Server CPU per forwarded stream, packet loss and event-loop delay of the built-in SFU at 1, 20
 * and 100 listeners. The SFU runs in this process; the talker and the listeners are werift clients
 * in two child processes, so the CPU measured here is the SFU's alone. One talker sends 50 Opus-sized
 * packets a second (a 20 ms frame each); listeners have no publish right, as in a PTT channel
 * where one person talks.
 *
 *   npx tsx bench/sfu/sfu-cpu.bench.ts [seconds-per-step]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startSfuTestServer } from '../../server/src/voice/sfu/testing/sfu-test-server.js';
import { BENCH_PAYLOAD_BYTES, PACKETS_PER_SECOND } from './swarm/bench-packet.js';
import { SwarmProcess } from './swarm/swarm-process.js';
import type { JoinTarget } from './swarm/swarm-client.js';

const STEPS = (process.env.SFU_BENCH_STEPS ?? '1,20,100').split(',').map(Number);
const SECONDS = Number(process.argv[2] ?? 10);
const GROUP = 'built-in';

/** Packets each listener received since the last window was opened. */
async function counts(swarm: SwarmProcess): Promise<number[]> {
  return (await swarm.ask({ cmd: 'stats', group: GROUP })).received;
}

async function publish(
  swarm: SwarmProcess,
  seconds: number,
): Promise<{ from: number; to: number }> {
  return swarm.ask({ cmd: 'publish', group: GROUP, seconds, payloadBytes: BENCH_PAYLOAD_BYTES });
}

async function cpuOver<T>(work: () => Promise<T>): Promise<{
  result: T;
  corePercent: number;
  eventLoopP99Ms: number;
  eventLoopP999Ms: number;
  eventLoopMaxMs: number;
}> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = performance.now() - wallStart;
  histogram.disable();
  return {
    result,
    corePercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    eventLoopP99Ms: histogram.percentile(99) / 1e6,
    eventLoopP999Ms: histogram.percentile(99.9) / 1e6,
    eventLoopMaxMs: histogram.max / 1e6,
  };
}

const server = await startSfuTestServer();
const talker = new SwarmProcess();
const audience = new SwarmProcess();
const rows: string[] = [];
const busy: { listeners: number; corePercent: number }[] = [];
try {
  await talker.ask({
    cmd: 'join',
    group: GROUP,
    role: 'publisher',
    targets: [{ server: 'built-in', url: server.url, token: await server.token('bench-talker') }],
  });
  let listeners = 0;
  for (const target of STEPS) {
    const targets: JoinTarget[] = [];
    for (; listeners < target; listeners++) {
      const token = await server.token(`bench-listener-${listeners}`, 1, { adminMuted: true });
      targets.push({ server: 'built-in', url: server.url, token });
    }
    await audience.ask({ cmd: 'join', group: GROUP, role: 'subscriber', targets });
    await audience.ask({ cmd: 'window', group: GROUP, from: 0, to: Number.MAX_SAFE_INTEGER });
    // Loss must measure forwarding, not set-up: talk until every listener hears something.
    const readySince = performance.now();
    for (let attempt = 0; attempt < 30; attempt++) {
      await publish(talker, 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      if ((await counts(audience)).every((n) => n > 0)) break;
    }
    const silent = (await counts(audience)).filter((n) => n === 0).length;
    if (silent > 0) console.log(`  ${silent} of ${target} listeners never received audio`);
    console.log(
      `  all listeners hearing after ${((performance.now() - readySince) / 1000).toFixed(1)} s`,
    );

    const idle = await cpuOver(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
    const { nextIndex } = await talker.ask({ cmd: 'stream', group: GROUP, on: false });
    const to = nextIndex + SECONDS * PACKETS_PER_SECOND;
    await audience.ask({ cmd: 'window', group: GROUP, from: nextIndex, to });
    const active = await cpuOver(() => publish(talker, SECONDS));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await counts(audience);

    const sent = active.result.to - active.result.from;
    const received = after.reduce((sum, n) => sum + n, 0);
    const lossPercent = (1 - received / (sent * target)) * 100;
    const perStream = (active.corePercent - idle.corePercent) / target;
    rows.push(
      [
        `listeners ${String(target).padStart(3)}`,
        `SFU CPU ${active.corePercent.toFixed(1)} % of a core (idle ${idle.corePercent.toFixed(1)} %)`,
        `per forwarded stream ${perStream.toFixed(3)} % → ${perStream > 0 ? Math.floor(100 / perStream) : '∞'} streams/core`,
        `loss ${lossPercent.toFixed(3)} % (${received}/${sent * target})`,
        `event loop p99 ${active.eventLoopP99Ms.toFixed(1)} ms, p99.9 ${active.eventLoopP999Ms.toFixed(1)} ms, max ${active.eventLoopMaxMs.toFixed(1)} ms ` +
          `(idle p99 ${idle.eventLoopP99Ms.toFixed(1)}, max ${idle.eventLoopMaxMs.toFixed(1)})`,
      ].join(' | '),
    );
    busy.push({ listeners: target, corePercent: active.corePercent - idle.corePercent });
    console.log(rows[rows.length - 1]);
  }
} finally {
  await Promise.allSettled([
    talker.ask({ cmd: 'leave', group: GROUP }),
    audience.ask({ cmd: 'leave', group: GROUP }),
  ]);
  talker.kill();
  audience.kill();
  await server.close();
}
console.log('\nSFU forwarding CPU (one talker, 50 packets/s of 80-byte Opus, loopback):');
for (const row of rows) console.log(`  ${row}`);
// The first listener also pays for receiving and decrypting the talker; the slope is what each
// further listener costs.
const first = busy[0];
const last = busy[busy.length - 1];
if (first && last && last.listeners > first.listeners) {
  const marginal = (last.corePercent - first.corePercent) / (last.listeners - first.listeners);
  console.log(
    `  marginal cost per extra listener: ${marginal.toFixed(3)} % of a core → ${Math.floor(100 / marginal)} streams/core`,
  );
}
