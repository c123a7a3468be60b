import { createServer } from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.js';

/** A port nothing listens on: taken, then released. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

describe('isDatabaseUnavailable', () => {
  it('recognises the real errors of a database that is not there, through Drizzle', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x`,
    });
    const failure: unknown = await drizzle({ client: pool })
      .execute(sql`select 1`)
      .then(
        () => null,
        (error: unknown) => error,
      );
    await pool.end();
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });

  it('leaves real bugs and bad requests alone', () => {
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    // unique_violation: the request's fault, never a 503.
    expect(
      isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })),
    ).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
