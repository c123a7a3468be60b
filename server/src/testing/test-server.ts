import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent as HttpsAgent } from 'node:https';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../app.js';
import { resolveConfig, type Config } from '../config/config.js';
import { parseEnv } from '../config/env.js';
import type { DatabaseHandle } from '../db/database.js';

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Ports for test servers come from below the kernel's ephemeral range (32768 and up on Linux). A port
 * that `listen(0)` hands out is ephemeral, so between our probe and the real listen any outgoing
 * connection on the machine could take it as its local port (CI saw EADDRINUSE that way).
 */
const TEST_PORTS = { from: 20000, to: 32000 };

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port between ${TEST_PORTS.from} and ${TEST_PORTS.to}`);
}

const isAddressInUse = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === 'EADDRINUSE';

/** A real server on a real port over the given database, API only (no client build needed). */
export async function startTestServer(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  options: {
    logStream?: DestinationStream;
    signInSleep?: (ms: number) => Promise<void>;
    pushAgent?: HttpsAgent;
    /** Serve this folder as the built client (an index.html and assets), as production serves dist/client. */
    clientRoot?: string;
    /** Receives the server's plain notices for its operator (ignored unless given). */
    operatorNotice?: (text: string) => void;
  } = {},
): Promise<TestServer> {
  // Another test process may pick the same port between our probe and our listen: then start again on another.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const config = resolveConfig(
      parseEnv({
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-data-')),
        LOG_LEVEL: 'silent',
        ...env,
      }),
    );
    const app = await buildApp({
      config,
      database,
      serveClient: options.clientRoot !== undefined,
      clientRoot: options.clientRoot,
      logger: false,
      logStream: options.logStream,
      signInSleep: options.signInSleep,
      pushAgent: options.pushAgent,
      operatorNotice: options.operatorNotice ?? (() => undefined),
    });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      if (isAddressInUse(error) && attempt < 5) continue;
      throw error;
    }
    return { app, config, database, baseUrl, close: () => app.close() };
  }
}
