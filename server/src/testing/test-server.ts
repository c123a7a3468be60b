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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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
  await app.listen({ port, host: '127.0.0.1' });
  return { app, config, database, baseUrl, close: () => app.close() };
}
