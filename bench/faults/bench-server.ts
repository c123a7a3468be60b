import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { rawBuffer } from '../../server/src/realtime/raw-data.js';

/**
 * The server under measurement in its own process (`bench/presence/server-process.ts`: members
 * seeded straight into the database, memory and CPU over IPC), and members' `/ws` sockets to it.
 */
export interface BenchServer {
  child: ChildProcess;
  port: number;
  origin: string;
}

export interface Seeded {
  channelId: number;
  userIds: string[];
  tokens: string[];
}

export type MemberUpdate = { type: 'member_update'; channelId: number; member: { id: string; isTalking: boolean; isOnline: boolean; isActiveInChannel: boolean } };

export function startServer(): Promise<BenchServer> {
  const child = fork(fileURLToPath(new URL('../presence/server-process.ts', import.meta.url)), [], {
    // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server alone.
    execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const ready = m as { port: number; origin: string };
      resolve({ child, port: ready.port, origin: ready.origin });
    });
  });
}

export function ask<T>(child: ChildProcess, message: object, reply: string): Promise<T> {
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

export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send({ type: 'stop' });
  });
}

export async function rssOf(child: ChildProcess): Promise<number> {
  return (await ask<{ usage: NodeJS.MemoryUsage }>(child, { type: 'memory' }, 'memory')).usage.rss;
}

/** One member's `/ws` socket, open. */
export function connect(server: BenchServer, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
      headers: { origin: server.origin, cookie: `chirp_session=${token}` },
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Calls `onUpdate` with every member_update the socket receives. */
export function onMemberUpdate(ws: WebSocket, onUpdate: (update: MemberUpdate) => void): void {
  ws.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(rawBuffer(data).toString('utf8')) as { type: string };
    if (message.type === 'member_update') onUpdate(message as MemberUpdate);
  });
}

/** The channel's member list as the REST API answers it to one member. */
export type RestMember = MemberUpdate['member'] & { userId: string };

export async function membersOf(server: BenchServer, channelId: number, token: string): Promise<RestMember[]> {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/channels/${channelId}/members`, {
    headers: { cookie: `chirp_session=${token}` },
  });
  if (!response.ok) throw new Error(`members: ${response.status}`);
  return (await response.json()) as RestMember[];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `--name value` from the command line, as a number. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
