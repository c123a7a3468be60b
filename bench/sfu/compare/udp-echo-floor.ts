/**
 * What answering idle members costs a Node process at the very least: a bare UDP echo (no STUN, no
 * HMAC, nothing but receive and send) with one socket per member, each sent a datagram every 4–6 s,
 * the cadence of a WebRTC client's consent checks. Printed beside the idle-rooms figures so an
 * SFU's idle cost can be read against the wake-ups its members' checks force on any Node server.
 */
import { fork } from 'node:child_process';
import dgram, { type Socket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './process-usage.js';

const CHILD_FLAG = 'SFU_COMPARE_ECHO_CHILD';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.env[CHILD_FLAG]) {
  const count = Number(process.env[CHILD_FLAG]);
  const ports: number[] = [];
  for (let i = 0; i < count; i++) {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (message, from) => socket.send(message, from.port, from.address));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    ports.push(socket.address().port);
  }
  process.send?.(ports);
}

/** The echo process's CPU, in % of a core, over `seconds` once every socket is being checked. */
export async function udpEchoFloor(sockets: number, seconds: number): Promise<number> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [CHILD_FLAG]: String(sockets) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const clients: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    const ports = await new Promise<number[]>((resolve, reject) => {
      child.once('message', (message) => resolve(message as number[]));
      child.once('error', reject);
    });
    const check = Buffer.alloc(100); // about a consent check's size
    for (const [i, port] of ports.entries()) {
      const client = dgram.createSocket('udp4');
      clients.push(client);
      await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
      client.on('message', () => undefined);
      const next = () => {
        client.send(check, port, '127.0.0.1');
        timers[i] = setTimeout(next, 4_000 + Math.random() * 2_000);
      };
      timers[i] = setTimeout(next, Math.random() * 5_000);
    }
    await sleep(6_000); // every socket checked once, the echo warmed up
    const cpu0 = cpuSeconds(child.pid!);
    const wall0 = performance.now();
    await sleep(seconds * 1_000);
    return ((cpuSeconds(child.pid!) - cpu0) / ((performance.now() - wall0) / 1000)) * 100;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const client of clients) client.close();
    child.kill();
  }
}
