import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { rawBuffer } from '../../server/src/realtime/raw-data.js';
import { percentile } from '../stats.js';

/**
 * Presence fan-out: N members of one channel hold /ws sockets; one toggles talking; how long
 * until the LAST receiver sees the member_update? Then: server memory per idle socket at 10,000.
 * Goals: p99 ≤ 50 ms at 1,000 receivers; ≤ 40 KB per idle socket.
 */
const ROUNDS = 60;
/** First toggles only drain the backlog of everyone's joins; they are not counted. */
const WARM_UP = 6;

interface Seeded { channelId: number; userIds: string[]; tokens: string[] }

function startServer(): Promise<{ child: ChildProcess; port: number; origin: string }> {
  const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
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

async function openSockets(port: number, origin: string, tokens: string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const batch = 200;
  for (let i = 0; i < tokens.length; i += batch) {
    const opened = await Promise.all(
      tokens.slice(i, i + batch).map(
        (token) =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin, cookie: `chirp_session=${token}` } });
            ws.once('open', () => resolve(ws));
            ws.once('error', reject);
          }),
      ),
    );
    sockets.push(...opened);
  }
  return sockets;
}

async function fanout(n: number): Promise<void> {
  const { child, port, origin } = await startServer();
  const seeded = await ask<Seeded>(child, { type: 'seed', count: n }, 'seeded');
  const sockets = await openSockets(port, origin, seeded.tokens);
  const talkerId = seeded.userIds[0]!;
  // Everyone views the channel; wait until each socket has seen every join so the room is settled.
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          ws.send(JSON.stringify({ type: 'join_channel', channelId: seeded.channelId }));
          resolve();
        }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 1500 + n * 3));
  const talker = sockets[0]!;
  const latencies: number[] = [];
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    const talking = round % 2 === 0;
    const started = performance.now();
    let remaining = sockets.length;
    const done = new Promise<void>((resolve) => {
      for (const ws of sockets) {
        const onMessage = (data: WebSocket.RawData) => {
          const m = JSON.parse(rawBuffer(data).toString('utf8')) as { type: string; member?: { id: string; isTalking: boolean } };
          if (m.type !== 'member_update' || m.member?.id !== talkerId || m.member.isTalking !== talking) return;
          ws.off('message', onMessage);
          if (--remaining === 0) resolve();
        };
        ws.on('message', onMessage);
      }
    });
    talker.send(JSON.stringify({ type: talking ? 'start_talking' : 'stop_talking', channelId: seeded.channelId }));
    await done;
    if (round >= WARM_UP) latencies.push(performance.now() - started);
    // Stay under the socket's flood limit (20 messages/s sustained), as a person toggling would.
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
  console.log(
    `fan-out to ${n} sockets: last receiver p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${ROUNDS} toggles)`,
  );
  for (const ws of sockets) ws.terminate();
  await stop(child);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send({ type: 'stop' });
  });
}

async function idleMemory(n: number): Promise<void> {
  const { child, port, origin } = await startServer();
  const seeded = await ask<Seeded>(child, { type: 'seed', count: n }, 'seeded');
  const before = await ask<{ usage: NodeJS.MemoryUsage }>(child, { type: 'memory' }, 'memory');
  const sockets = await openSockets(port, origin, seeded.tokens);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const after = await ask<{ usage: NodeJS.MemoryUsage }>(child, { type: 'memory' }, 'memory');
  const perSocket = (key: keyof NodeJS.MemoryUsage) => ((after.usage[key] - before.usage[key]) / n / 1024).toFixed(1);
  console.log(`idle sockets: ${n}; server memory per socket: ${perSocket('rss')} KB RSS, ${perSocket('heapUsed')} KB heap (goal ≤ 40 KB)`);
  for (const ws of sockets) ws.terminate();
  await stop(child);
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length ? sizes : [100, 1000]) await fanout(n);
await idleMemory(sizes.length ? Math.max(...sizes) : 10_000);
process.exit(0);
