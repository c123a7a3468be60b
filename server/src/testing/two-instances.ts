import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../db/database.js';
import { startTestServer, type TestServer } from './test-server.js';

/** What instances behind one proxy share, so a sign-in on one is valid on the other. */
export const SHARED_SESSION_SECRET = 'a-shared-secret-for-both-instances-0123456789';

/** A PostgreSQL database of its own on the server of `databaseUrl`, until `drop`. */
export interface ScratchPostgres {
  url: string;
  drop(): Promise<void>;
}

/** Creates a fresh database (`chirp_<label>_<random>`) beside the one `databaseUrl` names. */
export async function scratchPostgres(databaseUrl: string, label: string): Promise<ScratchPostgres> {
  const name = `chirp_${label}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export interface TwoInstances {
  a: TestServer;
  b: TestServer;
  /** The Redis key prefix both use (when they share Redis). */
  prefix: string;
  /** Stops both and drops their database. */
  close(): Promise<void>;
}

/**
 * Two instances of the app on one fresh PostgreSQL database, as behind one proxy: the same session
 * secret and, with `redisUrl`, one Redis (bus, floor, presence, counters) under a prefix of their own.
 */
export async function startTwoInstances(options: {
  databaseUrl: string;
  label: string;
  redisUrl?: string;
  env?: Record<string, string>;
  server?: Parameters<typeof startTestServer>[2];
}): Promise<TwoInstances> {
  const database = await scratchPostgres(options.databaseUrl, options.label);
  const prefix = `chirp-${options.label}-${randomBytes(4).toString('hex')}:`;
  const env = {
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, REDIS_PREFIX: prefix } : {}),
    SESSION_SECRET: SHARED_SESSION_SECRET,
    ...options.env,
  };
  const start = async () =>
    startTestServer(await openDatabase({ url: database.url, dataDir: '/tmp' }), env, options.server);
  const a = await start();
  const b = await start();
  return {
    a,
    b,
    prefix,
    async close() {
      for (const server of [a, b]) {
        await server.close();
        await server.database.close();
      }
      await database.drop();
    },
  };
}
