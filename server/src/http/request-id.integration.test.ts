import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { resolveConfig } from '../config/config.js';
import { parseEnv } from '../config/env.js';
import type { DatabaseHandle } from '../db/database.js';
import { testDatabases } from '../testing/test-databases.js';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  req?: { url?: string };
}

/** A server whose JSON log lines are collected, as an operator's log shipper would read them. */
async function loggedServer(database: DatabaseHandle, trustProxy: boolean) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const config = resolveConfig(
    parseEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-log-')), TRUST_PROXY: String(trustProxy), PUBLIC_URL: 'http://localhost:5000' }),
  );
  const app = await buildApp({ config, database, serveClient: false, logger: { level: 'info', stream } });
  await app.ready();
  return { app, lines };
}

describe('request ids and request logging', () => {
  let database: DatabaseHandle;
  let behindProxy: { app: FastifyInstance; lines: LogLine[] };
  let direct: { app: FastifyInstance; lines: LogLine[] };

  beforeAll(async () => {
    database = await testDatabases()[0]!.open();
    behindProxy = await loggedServer(database, true);
    direct = await loggedServer(database, false);
  });
  afterAll(async () => {
    await behindProxy.app.close();
    await direct.app.close();
    await database.close();
  });

  it("keeps a trusted proxy's X-Request-Id, returns it, and puts it on every log line of the request", async () => {
    // A callback without its login cookie logs a warning from inside the handler.
    const response = await behindProxy.app.inject({ url: '/api/callback?code=x&state=y', headers: { 'x-request-id': 'edge-4f2a-91' } });
    expect(response.statusCode).toBe(400);
    expect(response.headers['x-request-id']).toBe('edge-4f2a-91');
    const mine = behindProxy.lines.filter((line) => line.requestId === 'edge-4f2a-91');
    expect(mine.map((line) => line.msg)).toEqual([
      'incoming request',
      'sign-in callback without a valid login cookie (expired, replayed or forged)',
      'request completed',
    ]);
  });

  it('makes its own id when the client talks to it directly, or the id is malformed', async () => {
    const direct1 = await direct.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(direct1.headers['x-request-id']).not.toBe('chosen-by-client');
    expect(direct1.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const direct2 = await direct.app.inject({ url: '/api/auth/user' });
    expect(direct2.headers['x-request-id']).not.toBe(direct1.headers['x-request-id']);

    const forged = await behindProxy.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': 'a b"}\n{"level":60' } });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not log health probes at info', async () => {
    const before = direct.lines.length;
    expect((await direct.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await direct.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    await direct.app.inject({ url: '/api/auth/user' });
    const urls = direct.lines.slice(before).map((line) => line.req?.url).filter(Boolean);
    expect(urls).toEqual(['/api/auth/user']);
  });
});
