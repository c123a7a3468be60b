import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { rawBuffer } from '../../server/src/realtime/raw-data.js';
import { percentile } from '../stats.js';

/**
 * "One member can stall the server": 100 sockets of ONE member toggle talking at a
 * quarter of the per-socket limit (5 messages a second each) while another member watches the
 * channel. Prints member_update pushes per 10 s (all sockets together) and /healthz latency.
 * Before the fix the issue measured 387k pushes in 10 s and a /healthz median of 1.9 s.
 */
const SOCKETS = 100;
const PER_SOCKET_PER_SECOND = 5;
const SECONDS = 10;

interface Seeded {
  channelId: number;
  userIds: string[];
  tokens: string[];
}

function startServer(): Promise<{ child: ChildProcess; port: number; origin: string }> {
  const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const ready = m as { port: number; origin: string };
      resolve({ child, port: ready.port, origin: ready.origin });
    });
  });
}

function ask<T>(child: ChildProcess, message: object, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if ((m as { type: string }).type !== reply) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

function open(port: number, origin: string, token: string): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { origin, cookie: `chirp_session=${token}` },
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', () => resolve(null));
    ws.once('unexpected-response', () => resolve(null));
  });
}

const { child, port, origin } = await startServer();
const seeded = await ask<Seeded>(child, { type: 'seed', count: 2 }, 'seeded');
const [memberToken, watcherToken] = seeded.tokens as [string, string];
const { channelId } = seeded;

let pushes = 0;
let counting = false;
const count = (ws: WebSocket) =>
  ws.on('message', (data) => {
    if (!counting) return;
    const m = JSON.parse(rawBuffer(data).toString('utf8')) as { type: string };
    if (m.type === 'member_update') pushes++;
  });

const watcher = (await open(port, origin, watcherToken))!;
count(watcher);
watcher.send(JSON.stringify({ type: 'join_channel', channelId }));
const member: WebSocket[] = [];
for (let i = 0; i < SOCKETS; i++) {
  const ws = await open(port, origin, memberToken);
  if (!ws) continue;
  count(ws);
  ws.on('close', () => undefined);
  member.push(ws);
}
await new Promise((resolve) => setTimeout(resolve, 300));
const accepted = member.filter((ws) => ws.readyState === WebSocket.OPEN);
for (const ws of accepted) ws.send(JSON.stringify({ type: 'join_channel', channelId }));
await new Promise((resolve) => setTimeout(resolve, 1000));

counting = true;
const health: number[] = [];
let flooding = true;
const probe = (async () => {
  while (flooding) {
    const started = performance.now();
    await fetch(`http://127.0.0.1:${port}/healthz`);
    health.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
})();
const talking = new Map<WebSocket, boolean>();
const timers: NodeJS.Timeout[] = [];
// Spread the sockets' ticks over one period, as independent devices would be.
accepted.forEach((ws, i) => {
  const toggle = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const next = !(talking.get(ws) ?? false);
    talking.set(ws, next);
    ws.send(JSON.stringify({ type: next ? 'start_talking' : 'stop_talking', channelId }));
  };
  const offset = (i * 1000) / PER_SOCKET_PER_SECOND / accepted.length;
  timers.push(
    setTimeout(() => timers.push(setInterval(toggle, 1000 / PER_SOCKET_PER_SECOND)), offset),
  );
});
await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
counting = false;
flooding = false;
for (const timer of timers) clearTimeout(timer);
await probe;
const stillOpen = accepted.filter((ws) => ws.readyState === WebSocket.OPEN).length;
console.log(
  `flood: ${SOCKETS} sockets of one member asked, ${accepted.length} accepted` +
    ` (${SOCKETS - accepted.length} refused or closed at once), ${stillOpen} still open after` +
    ` ${SECONDS} s of toggling at ${PER_SOCKET_PER_SECOND}/s each`,
);
console.log(
  `  member_update pushes in ${SECONDS} s, all sockets: ${pushes} (before the fix: 387,000)`,
);
console.log(
  `  /healthz during the flood: median ${percentile(health, 50).toFixed(1)} ms, p99 ${percentile(health, 99).toFixed(1)} ms (before: median 1,900 ms)`,
);
for (const ws of [watcher, ...member]) ws.terminate();
await new Promise<void>((resolve) => {
  child.once('exit', () => resolve());
  child.send({ type: 'stop' });
});
process.exit(0);
