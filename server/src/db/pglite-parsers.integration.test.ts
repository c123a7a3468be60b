import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_TEMPLATE_VARIABLE } from '../testing/database-templates.js';
import { withDrizzleParsers } from './pglite-parsers.js';

/** A copy of the run's migrated template opens in under a second, where a new cluster takes seconds. */
function scratchPglite(): PGlite {
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (!template) return new PGlite();
  const dir = join(mkdtempSync(join(tmpdir(), 'chirp-parsers-')), 'db');
  cpSync(template, dir, { recursive: true });
  return new PGlite(dir);
}

/** Every kind of column Chirp's schema has, and the arrays Drizzle overrides. */
const COLUMNS = sql`
  select
    'a7c6f3f0-9a43-4a4c-8d0f-1c2b3a4d5e6f'::uuid as id,
    42::integer as n,
    9007199254740993::bigint as big,
    12.50::numeric as amount,
    true as flag,
    'Ava'::text as name,
    '{"a":[1,2]}'::jsonb as doc,
    '2026-11-27 08:00:00.123+00'::timestamptz as at,
    '2026-11-27 08:00:00'::timestamp as local_at,
    '2026-11-27'::date as day,
    '1 day 02:00:00'::interval as span,
    array['2026-11-27 08:00:00+00'::timestamptz] as ats,
    array[1.5, 2.25]::numeric[] as amounts,
    array['x', 'y']::text[] as names,
    array[1, 2]::integer[] as ns,
    '\\x0102'::bytea as bytes
`;

describe('PGlite with Drizzle parsers installed once', () => {
  const client = scratchPglite();
  afterAll(() => client.close());

  it('reads every kind of column exactly as Drizzle does with its own per-query parsers', async () => {
    const plain = drizzle({ client });
    const expected = await plain.execute(COLUMNS);
    const expectedInTx = await plain.transaction((tx) => tx.execute(COLUMNS));

    const fast = drizzle({ client: await withDrizzleParsers(client) });
    const actual = await fast.execute(COLUMNS);
    const actualInTx = await fast.transaction((tx) => tx.execute(COLUMNS));

    expect(actual.rows).toEqual(expected.rows);
    expect(actualInTx.rows).toEqual(expectedInTx.rows);
    // The timestamps stay PostgreSQL's text, as node-postgres gives them to Drizzle.
    expect(actual.rows[0]).toMatchObject({ at: '2026-11-27 08:00:00.123+00', day: '2026-11-27' });
  });

  it('leaves no parsers on the queries that reach the client, in or out of a transaction', async () => {
    const seen: unknown[] = [];
    /** Notes the parsers each query brings, then runs it. */
    const noting = <T extends Pick<PGlite, 'query'>>(target: T): T =>
      new Proxy(target, {
        get(object, property) {
          if (property === 'query')
            return (query: string, params?: unknown[], options?: QueryOptions) => {
              seen.push(options?.parsers);
              return object.query(query, params, options);
            };
          if (property === 'transaction')
            return (run: (tx: Transaction) => Promise<unknown>) =>
              (object as unknown as PGlite).transaction((tx) => run(noting(tx)));
          const value: unknown = Reflect.get(object, property);
          return typeof value === 'function'
            ? (value as (...args: unknown[]) => unknown).bind(object)
            : value;
        },
      });
    const spy = noting(client);
    const fast = drizzle({ client: await withDrizzleParsers(spy) });
    await fast.execute(sql`select now() as at`);
    await fast.transaction((tx) => tx.execute(sql`select now() as at`));
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((parsers) => parsers === undefined)).toBe(true);
  });
});
