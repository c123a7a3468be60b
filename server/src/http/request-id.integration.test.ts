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
  proxyRequestId?: string;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

  it("makes its own id behind a proxy too, and logs the proxy's id beside it on every line of the request", async () => {
    // A callback without its login cookie logs a warning from inside the handler.
    const response = await behindProxy.app.inject({ url: '/api/callback?code=x&state=y', headers: { 'x-request-id': 'edge-4f2a-91' } });
    expect(response.statusCode).toBe(400);
    const ours = response.headers['x-request-id'];
    expect(ours).toMatch(UUID);
    const mine = behindProxy.lines.filter((line) => line.proxyRequestId === 'edge-4f2a-91');
    expect(mine.map((line) => line.msg)).toEqual([
      'incoming request',
      'sign-in callback without a valid login cookie (expired, replayed or forged)',
      'request completed',
    ]);
    expect(mine.every((line) => line.requestId === ours)).toBe(true);
  });

  it('never lets a client choose or repeat the request id, even when the proxy passes its header on', async () => {
    // Behind TRUST_PROXY a client's header may reach the server unchanged (a proxy that passes it).
    const first = await behindProxy.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': 'chosen-by-client' } });
    const second = await behindProxy.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(behindProxy.lines.filter((line) => line.requestId === 'chosen-by-client')).toEqual([]);

    const direct1 = await direct.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(direct1.headers['x-request-id']).toMatch(UUID);
    const direct2 = await direct.app.inject({ url: '/api/auth/user' });
    expect(direct2.headers['x-request-id']).not.toBe(direct1.headers['x-request-id']);
    // Without a trusted proxy the header is not even logged.
    expect(direct.lines.filter((line) => line.proxyRequestId !== undefined)).toEqual([]);
  });

  it.each([
    ['a forged log line', 'a b"}\n{"level":60'],
    ['an overlong id', 'x'.repeat(65)],
  ])('drops %s sent as the proxy id', async (_, given) => {
    const before = behindProxy.lines.length;
    const response = await behindProxy.app.inject({ url: '/api/auth/user', headers: { 'x-request-id': given } });
    expect(response.headers['x-request-id']).toMatch(UUID);
    const lines = behindProxy.lines.slice(before);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.proxyRequestId !== undefined)).toEqual([]);
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
