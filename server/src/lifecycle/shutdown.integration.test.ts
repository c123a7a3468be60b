import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { freePort } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const databaseUrl = process.env.TEST_DATABASE_URL;

/** A Redis of this test's own on a free port (never the shared one), stopped by its PID. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A TCP relay to PostgreSQL: cutting it is the database going away under the server. */
async function startDatabaseRelay(target: URL): Promise<{ port: number; cut(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return {
    port,
    cut: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /**
   * Sends SIGTERM and resolves with the exit code once the process is gone. The shutdown's own
   * deadline (8 s, graceful-shutdown.test.ts) keeps it inside an orchestrator's 10 s; this only
   * waits, generously, for the process to end at all.
   */
  terminate(): Promise<{ code: number | null }>;
}

async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/lifecycle/testing/api-server-process.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-shutdown-')),
      LOG_LEVEL: process.env.DEBUG_SHUTDOWN ? 'info' : 'warn',
      REDIS_PREFIX: `chirp-shutdown-${randomBytes(4).toString('hex')}:`,
      ...env,
    },
    stdio: process.env.DEBUG_SHUTDOWN ? 'inherit' : 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    child,
    terminate: async () => {
      child.kill('SIGTERM');
      let waiting: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<never>((_resolve, reject) => {
        waiting = setTimeout(() => reject(new Error('server still running 30 s after SIGTERM')), 30_000);
      });
      try {
        return { code: await Promise.race([exited, gaveUp]) };
      } finally {
        clearTimeout(waiting);
      }
    },
  };
}

/** Needs PostgreSQL (to take it away) and redis-server (to stop one): runs where CI provides them. */
describe.runIf(databaseUrl)('readiness and SIGTERM with dependencies going down', () => {
  const dbName = `chirp_shutdown_${randomBytes(4).toString('hex')}`;
  let serverDatabaseUrl: URL;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    serverDatabaseUrl = new URL(databaseUrl!);
    serverDatabaseUrl.pathname = `/${dbName}`;
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  /** A server on PostgreSQL (through a relay this test can cut) and a Redis of its own. */
  async function upAndRunning() {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const relay = await startDatabaseRelay(serverDatabaseUrl);
    cleanups.push(() => relay.cut());
    const url = new URL(serverDatabaseUrl);
    url.host = `127.0.0.1:${relay.port}`;
    const server = await startServerProcess({ DATABASE_URL: url.href, REDIS_URL: redis.url });
    cleanups.push(() => {
      server.child.kill('SIGKILL');
    });
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Sam Socket', email: `sam-${randomBytes(3).toString('hex')}@example.com` });
    const socket = await TestSocket.open(client);
    const closeCode = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    // Messages are handled after the socket's opening work: an answer means the socket is settled in.
    socket.send({ type: 'initiate_call', callId: 'settle-call-1', receiverId: 'nobody', roomName: 'settle-room-1' });
    await socket.next((m: { type?: string }) => m.type === 'call_declined', 15_000);
    const readyz = async () => {
      const response = await fetch(`${server.baseUrl}/readyz`);
      return { status: response.status, body: (await response.json()) as { status: string; failed?: string[] } };
    };
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } } });
    return { redis, relay, server, readyz, closeCode };
  }

  it('/readyz names Redis when it stops; SIGTERM closes sockets with "reconnect" and exits within 10 s', async () => {
    const { redis, server, readyz, closeCode } = await upAndRunning();
    await redis.stop();
    await expect.poll(readyz, { timeout: 10_000 }).toMatchObject({ status: 503, body: { status: 'unavailable', failed: ['redis'] } });

    const { code } = await server.terminate();
    expect(await closeCode).toBe(WS_CLOSE_CODES.serverRestart);
    expect(code).toBe(0);
  }, 90_000);

  it('/readyz names the database when it goes away; SIGTERM still exits within 10 s', async () => {
    const { relay, server, readyz, closeCode } = await upAndRunning();
    relay.cut();
    await expect.poll(readyz, { timeout: 10_000 }).toMatchObject({ status: 503, body: { failed: ['database'] } });

    const { code } = await server.terminate();
    expect(await closeCode).toBe(WS_CLOSE_CODES.serverRestart);
    expect(code).toBe(0);
  }, 90_000);
});
