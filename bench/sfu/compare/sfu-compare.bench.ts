/**
 * The built-in SFU, LiveKit and Janus VideoRoom side by side, in one run on one machine: the same
 * werift swarm (one publisher of 20 ms Opus packets, N listeners) against each, ABBA-interleaved
 * (A B C C B A at every N) so drifting machine load falls on all three alike. Per server and N it
 * prints the server process's CPU (total, and per forwarded stream), RSS, loss, the send → receive
 * delay at the listeners, and how long all listeners took to hear; then the per-stream CPU ratios,
 * and what 500 rooms with one silent member each cost when nothing is said, beside what merely
 * answering those members' consent checks costs a bare Node process (`udp-echo-floor.ts`).
 *
 *   npm run bench sfu-compare
 *   SFU_COMPARE_STEPS=1,20 SFU_COMPARE_SECONDS=5 SFU_COMPARE_SERVERS=built-in,janus npx tsx bench/sfu/compare/sfu-compare.bench.ts
 *
 * The talker's packets are RED-sized (`RED_PAYLOAD_BYTES`: the previous Opus frame rides along in
 * every packet, as with Opus RED on, which every server forwards as is); SFU_COMPARE_PAYLOAD_BYTES=80
 * measures plain Opus. SFU_COMPARE_BASELINE=<another checkout, e.g. /work/main> adds that tree's
 * built-in SFU as `baseline`, measured in the same run, for a before/after of a change.
 *
 * LiveKit is the binary scripts/services.sh installs (TEST_LIVEKIT_BINARY); Janus is Debian's. When
 * either is missing from the environment, the bench asks scripts/services.sh for them first.
 */
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import {
  DTX_INTERVAL_MS,
  PACKETS_PER_SECOND,
  RED_PAYLOAD_BYTES,
  nowUs,
} from '../swarm/bench-packet.js';
import { DelayHistogram } from '../swarm/delay-histogram.js';
import type { JoinTarget } from '../swarm/swarm-client.js';
import { SwarmProcess } from '../swarm/swarm-process.js';
import { cpuSeconds, rssMiB } from './process-usage.js';
import { startBuiltInSfu } from './servers/builtin-sfu-process.js';
import { startJanus } from './servers/janus-process.js';
import { startLiveKit } from './servers/livekit-process.js';
import type { ServerUnderTest } from './servers/server-under-test.js';
import { udpEchoFloor } from './udp-echo-floor.js';

const STEPS = (process.env.SFU_COMPARE_STEPS ?? '1,20,100,300')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = Number(process.env.SFU_COMPARE_SECONDS ?? 10);
/** The talker's payload: RED-sized unless told otherwise, the same for every server. */
const PAYLOAD_BYTES = Number(process.env.SFU_COMPARE_PAYLOAD_BYTES ?? RED_PAYLOAD_BYTES);
const IDLE_ROOMS = Number(process.env.SFU_COMPARE_IDLE_ROOMS ?? 500);
const IDLE_WINDOW_MS = 30_000;
const WANTED = (process.env.SFU_COMPARE_SERVERS ?? 'built-in,janus,livekit').split(',');
/** Listener processes: each werift listener decrypts in JS, so spread them out. */
const LISTENER_PROCESSES = Number(process.env.SFU_COMPARE_SWARMS ?? 4);
const JOIN_TIMEOUT_MS = 120_000;
/** Joins in flight per swarm process: a steady stream of arrivals rather than a stampede. */
const JOIN_CONCURRENCY = Number(process.env.SFU_COMPARE_JOIN_CONCURRENCY ?? 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Totals {
  cpuSeconds: number;
  wallSeconds: number;
  idleCpuSeconds: number;
  idleWallSeconds: number;
  sent: number;
  expected: number;
  received: number;
  delays: DelayHistogram;
  rssMiB: number;
  joinMs: number;
  joinFailures: number;
  silent: number;
}

interface Row extends Totals {
  server: ServerUnderTest;
  listeners: number;
}

/** Installs LiveKit and Janus when missing (scripts/services.sh) and takes its exported paths. */
function ensureMediaServers(): void {
  if (process.env.TEST_LIVEKIT_BINARY && commandExists(process.env.JANUS_BINARY ?? 'janus')) return;
  try {
    const exports = execSync('bash scripts/services.sh livekit janus', {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for (const match of exports.matchAll(/^export (\w+)=(.*)$/gm))
      process.env[match[1]!] ??= match[2];
  } catch {
    console.log(
      'scripts/services.sh could not provide LiveKit and Janus; running with what there is',
    );
  }
}

async function startServers(): Promise<ServerUnderTest[]> {
  ensureMediaServers();
  const servers: ServerUnderTest[] = [];
  if (WANTED.includes('built-in')) servers.push(await startBuiltInSfu());
  const baseline = process.env.SFU_COMPARE_BASELINE;
  if (baseline) servers.push(await startBuiltInSfu({ root: baseline, label: 'baseline' }));
  if (WANTED.includes('janus')) {
    if (commandExists(process.env.JANUS_BINARY ?? 'janus')) servers.push(await startJanus());
    else console.log('Janus: not installed (run scripts/services.sh janus); left out of this run');
  }
  if (WANTED.includes('livekit')) {
    const binary = process.env.TEST_LIVEKIT_BINARY;
    if (binary && existsSync(binary)) servers.push(await startLiveKit(binary));
    else
      console.log(
        'LiveKit: TEST_LIVEKIT_BINARY not set (eval "$(bash scripts/services.sh)"); left out',
      );
  }
  return servers;
}

function commandExists(command: string): boolean {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const publisherSwarm = new SwarmProcess();
const listenerSwarms = Array.from({ length: LISTENER_PROCESSES }, () => new SwarmProcess());
const all = [publisherSwarm, ...listenerSwarms];

/** Splits listeners round-robin over the listener processes. */
function split<T>(items: T[], parts: number): T[][] {
  const out: T[][] = Array.from({ length: parts }, () => []);
  items.forEach((item, i) => out[i % parts]!.push(item));
  return out;
}

/** Joins the talker and N listeners of one server; the talker talks until all listeners hear. */
async function joinStep(
  server: ServerUnderTest,
  room: string,
  listeners: number,
): Promise<Pick<Totals, 'joinMs' | 'joinFailures' | 'silent'>> {
  const group = server.label;
  const publisher = await publisherSwarm.ask({
    cmd: 'join',
    group,
    role: 'publisher',
    targets: [await server.publisherTarget(room, 'talker')],
  });
  if (publisher.failures.length > 0)
    throw new Error(`${server.label}: talker could not join: ${publisher.failures[0]}`);
  await publisherSwarm.ask({ cmd: 'stream', group, on: true });
  const targets: JoinTarget[] = [];
  for (let i = 0; i < listeners; i++)
    targets.push(await server.subscriberTarget(room, `listener-${i}`, publisher.feeds[0]));
  const started = nowUs();
  const joins = await Promise.all(
    split(targets, listenerSwarms.length).map((part, i) =>
      part.length > 0
        ? listenerSwarms[i]!.ask({
            cmd: 'join',
            group,
            role: 'subscriber',
            targets: part,
            concurrency: JOIN_CONCURRENCY,
          })
        : Promise.resolve({ failures: [] as string[], retries: 0 }),
    ),
  );
  const failures = joins.flatMap((j) => j.failures);
  const retries = joins.reduce((sum, j) => sum + ('retries' in j ? j.retries : 0), 0);
  if (retries > 0)
    console.log(`  ${server.label}: ${retries} joins failed to connect and were made again`);
  if (failures.length > 0)
    console.log(`  ${server.label}: ${failures.length} joins failed, first: ${failures[0]}`);
  let firsts: (number | null)[] = [];
  let silent: string[] = [];
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const stats = await Promise.all(listenerSwarms.map((s) => s.ask({ cmd: 'stats', group })));
    firsts = stats.flatMap((s) => s.firstPacketUs);
    silent = stats.flatMap((s) => s.silent);
    if (firsts.every((t) => t !== null)) break;
    await sleep(250);
  }
  if (silent.length > 0)
    console.log(`  ${server.label}: never heard: ${silent.slice(0, 4).join('; ')}`);
  await publisherSwarm.ask({ cmd: 'stream', group, on: false });
  const heard = firsts.filter((t): t is number => t !== null);
  return {
    joinMs: heard.length > 0 ? (Math.max(...heard) - started) / 1000 : Number.NaN,
    joinFailures: failures.length,
    silent: firsts.length - heard.length,
  };
}

/** One measured talk spell: the talker sends for SECONDS while the server's CPU time is read. */
async function talk(server: ServerUnderTest, totals: Totals, listeners: number): Promise<void> {
  const group = server.label;
  const idle0 = cpuSeconds(server.pid);
  const idleWall0 = performance.now();
  await sleep(2_000);
  totals.idleCpuSeconds += cpuSeconds(server.pid) - idle0;
  totals.idleWallSeconds += (performance.now() - idleWall0) / 1000;

  const { nextIndex } = await publisherSwarm.ask({ cmd: 'stream', group, on: false });
  const to = nextIndex + SECONDS * PACKETS_PER_SECOND;
  await Promise.all(
    listenerSwarms.map((s) => s.ask({ cmd: 'window', group, from: nextIndex, to })),
  );
  const cpu0 = cpuSeconds(server.pid);
  const wall0 = performance.now();
  const sent = await publisherSwarm.ask({
    cmd: 'publish',
    group,
    seconds: SECONDS,
    payloadBytes: PAYLOAD_BYTES,
  });
  await sleep(300); // the last packets' way through
  totals.cpuSeconds += cpuSeconds(server.pid) - cpu0;
  totals.wallSeconds += (performance.now() - wall0) / 1000;
  totals.rssMiB = Math.max(totals.rssMiB, rssMiB(server.pid));
  const stats = await Promise.all(listenerSwarms.map((s) => s.ask({ cmd: 'stats', group })));
  const talker = (await publisherSwarm.ask({ cmd: 'stats', group })).publisher;
  if (stats.every((s) => s.received.every((n) => n === 0)))
    console.log(`  ${server.label}: nothing arrived; talker: ${talker ?? 'gone'}`);
  totals.sent += sent.to - sent.from;
  totals.expected += (sent.to - sent.from) * listeners;
  for (const s of stats) {
    totals.received += s.received.reduce((sum, n) => sum + n, 0);
    totals.delays.merge(s.delays);
  }
}

const pct = (cpu: number, wall: number) => (wall > 0 ? (cpu / wall) * 100 : Number.NaN);

/** The process's CPU, in % of a core, over the next `ms` of wall time. */
async function cpuPercentOver(pid: number, ms: number): Promise<number> {
  const cpu0 = cpuSeconds(pid);
  const wall0 = performance.now();
  await sleep(ms);
  return pct(cpuSeconds(pid) - cpu0, (performance.now() - wall0) / 1000);
}
const activePct = (r: Totals) => pct(r.cpuSeconds, r.wallSeconds);
const idlePct = (r: Totals) => pct(r.idleCpuSeconds, r.idleWallSeconds);

/** Least-squares slope of forwarding CPU (above idle) against listeners: the cost of one more stream. */
function marginal(rows: Row[]): number {
  const points = rows.map((r) => [r.listeners, activePct(r) - idlePct(r)] as const);
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

const lossPct = (row: Row) =>
  row.expected > 0 ? (1 - row.received / row.expected) * 100 : Number.NaN;
/**
 * Above this loss, or this median delay, at some server at some N, the machine could not carry that
 * step (on a small machine the werift listeners, which decrypt in JavaScript, run out of CPU before
 * the servers do, and packets queue): its CPU figures measure a starved server, so the step is left
 * out of every server's fit. Its rows are still printed.
 */
const SATURATED_LOSS_PCT = 1;
const SATURATED_DELAY_P50_MS = 100;
const saturatedStep = (row: Row) =>
  !(lossPct(row) <= SATURATED_LOSS_PCT) || row.delays.percentileMs(50) > SATURATED_DELAY_P50_MS;

function describe(row: Row): string {
  const active = activePct(row);
  const idle = idlePct(row);
  const perStream = (active - idle) / row.listeners;
  const loss = lossPct(row);
  return [
    row.server.label.padEnd(8),
    `N ${String(row.listeners).padStart(3)}`,
    `CPU ${active.toFixed(1).padStart(5)} % (idle ${idle.toFixed(1)} %)`,
    `per stream ${perStream.toFixed(3)} %`,
    `RSS ${row.rssMiB.toFixed(0).padStart(4)} MiB`,
    `loss ${loss.toFixed(3)} %`,
    `delay p50 ${row.delays.percentileMs(50).toFixed(2)} ms p99 ${row.delays.percentileMs(99).toFixed(2)} ms`,
    `all ${row.listeners} hearing after ${(row.joinMs / 1000).toFixed(1)} s` +
      (row.joinFailures || row.silent
        ? ` (${row.joinFailures} failed, ${row.silent} never heard)`
        : ''),
  ].join(' | ');
}

/** 500 rooms with one member each who publishes a microphone and says nothing. */
async function idleRooms(server: ServerUnderTest, rooms: number): Promise<string> {
  const group = `${server.label}-idle`;
  const base = await cpuPercentOver(server.pid, 5_000);
  const targets: JoinTarget[] = [];
  for (let i = 0; i < rooms; i++)
    targets.push(await server.publisherTarget(`idle-${i}`, `member-${i}`));
  const started = performance.now();
  const joins = await Promise.all(
    split(targets, all.length).map((part, i) =>
      all[i]!.ask({
        cmd: 'join',
        group,
        role: 'publisher',
        targets: part,
        concurrency: JOIN_CONCURRENCY,
      }),
    ),
  );
  const joined = joins.reduce((sum, j) => sum + j.clients, 0);
  const failures = joins.flatMap((j) => j.failures);
  if (failures.length > 0)
    console.log(
      `  ${server.label}: ${failures.length} members could not join, first: ${failures[0]}`,
    );
  const joinSeconds = (performance.now() - started) / 1000;
  await sleep(5_000);
  // One whole SCTP heartbeat period (30 s, each member's data channel), so every member's
  // heartbeat is counted once whenever the window starts; it holds 5–7 consent checks each.
  const idle = await cpuPercentOver(server.pid, IDLE_WINDOW_MS);
  const rss = rssMiB(server.pid);
  // The same members with their microphones open and silent (Opus DTX sending a frame every
  // 400 ms): what a browser sent between talks before decision 059, and still sends while its
  // microphone is on and nothing is said.
  await Promise.all(all.map((s) => s.ask({ cmd: 'silence', group, on: true })));
  await sleep(5_000);
  const dtx = await cpuPercentOver(server.pid, IDLE_WINDOW_MS);
  await Promise.all(all.map((s) => s.ask({ cmd: 'silence', group, on: false })));
  await Promise.all(all.map((s) => s.ask({ cmd: 'leave', group })));
  return `${server.label.padEnd(8)} | ${joined}/${rooms} rooms joined in ${joinSeconds.toFixed(0)} s | CPU ${idle.toFixed(2)} % of a core (${(idle - base).toFixed(2)} % above empty); ${dtx.toFixed(2)} % with DTX from every member | RSS ${rss.toFixed(0)} MiB`;
}

const servers = await startServers();
let cleaned: Promise<void> | undefined;
/** Leaves every room, ends the swarm and stops our own servers (never anyone else's). */
function cleanUp(): Promise<void> {
  cleaned ??= (async () => {
    await Promise.allSettled(
      servers.flatMap((server) => all.map((s) => s.ask({ cmd: 'leave', group: server.label }))),
    );
    for (const s of all) s.kill();
    await Promise.allSettled(servers.map((s) => s.stop()));
  })();
  return cleaned;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}
const rows: Row[] = [];
const runId = Date.now().toString(36);
try {
  console.log(
    `servers: ${servers.map((s) => `${s.label} (pid ${s.pid})`).join(', ')}; ${SECONDS} s per talk spell, ABBA order`,
  );
  for (const listeners of STEPS) {
    const totals = new Map<ServerUnderTest, Totals>();
    for (const server of servers) {
      const joined = await joinStep(server, `cmp-${runId}-${listeners}`, listeners);
      totals.set(server, {
        cpuSeconds: 0,
        wallSeconds: 0,
        idleCpuSeconds: 0,
        idleWallSeconds: 0,
        sent: 0,
        expected: 0,
        received: 0,
        delays: new DelayHistogram(),
        rssMiB: 0,
        ...joined,
      });
    }
    for (const server of [...servers, ...[...servers].reverse()])
      await talk(server, totals.get(server)!, listeners);
    for (const server of servers) {
      const row: Row = { server, listeners, ...totals.get(server)! };
      rows.push(row);
      console.log(describe(row));
    }
    await Promise.all(
      servers.flatMap((server) => all.map((s) => s.ask({ cmd: 'leave', group: server.label }))),
    );
    await sleep(2_000);
  }

  if (rows.length > 0) {
    console.log(
      `\nSFU comparison (one talker, 50 packets/s of ${PAYLOAD_BYTES}-byte ${PAYLOAD_BYTES === RED_PAYLOAD_BYTES ? 'Opus RED' : 'Opus'} payloads, loopback, ABBA-interleaved):`,
    );
  }
  for (const row of rows) console.log(`  ${describe(row)}`);
  const saturated = new Set(rows.filter(saturatedStep).map((r) => r.listeners));
  const fitted = STEPS.filter((n) => !saturated.has(n));
  if (saturated.size > 0)
    console.log(
      `  N = ${[...saturated].join(', ')}: loss above ${SATURATED_LOSS_PCT} % or median delay above ${SATURATED_DELAY_P50_MS} ms at some server, so this machine could not carry the step; left out of every fit (fitted over N = ${fitted.join(', ')})`,
    );
  const slopes = new Map(
    servers.map((s) => [
      s.label,
      marginal(rows.filter((r) => r.server === s && !saturated.has(r.listeners))),
    ]),
  );
  for (const server of servers) {
    const slope = slopes.get(server.label)!;
    if (Number.isNaN(slope)) continue;
    console.log(
      `  ${server.label}: ${slope.toFixed(4)} % of a core per forwarded stream (least-squares slope over N) → ${Math.floor(100 / slope)} streams per core`,
    );
  }
  const builtIn = slopes.get('built-in');
  if (builtIn !== undefined) {
    for (const other of servers) {
      const slope = slopes.get(other.label);
      if (other.label === 'built-in' || slope === undefined || Number.isNaN(builtIn / slope))
        continue;
      console.log(`built-in/${other.label} per-stream CPU ratio: ${(builtIn / slope).toFixed(2)}`);
    }
  }

  if (IDLE_ROOMS > 0) {
    console.log(
      `\nIdle load: ${IDLE_ROOMS} rooms, one silent member each (microphone published; no packets, then a DTX frame every ${DTX_INTERVAL_MS} ms):`,
    );
    for (const server of servers) console.log(`  ${await idleRooms(server, IDLE_ROOMS)}`);
    // What the members' consent checks alone force on a Node process, for scale.
    const floor = await udpEchoFloor(IDLE_ROOMS, 20);
    console.log(
      `  floor    | a bare Node UDP echo, ${IDLE_ROOMS} sockets each sent a datagram every 4–6 s (the members' consent checks): CPU ${floor.toFixed(2)} % of a core`,
    );
  }
} finally {
  await cleanUp();
}
