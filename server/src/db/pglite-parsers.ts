import { types, type PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * The type parsers Drizzle hands PGlite with every query: timestamps, dates and intervals (and
 * their arrays) stay the text PostgreSQL sent, as node-postgres gives them to Drizzle.
 */
const keepText = (value: string) => value;
export const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
] as const;

type QueryOptions = Parameters<PGlite['query']>[2];
type Queryable = Pick<PGlite, 'query'> & { transaction?: PGlite['transaction'] };

/**
 * PGlite copies its whole table of ~320 type parsers into a new object for every query that brings
 * parsers of its own, which Drizzle's does: about 190 µs of CPU per query, nearly half of what a
 * one-row select costs in all (every socket open runs several). So the client gets Drizzle's parsers
 * once, as its own, and Drizzle's queries reach it without them. `pglite-parsers.test.ts` checks
 * that Drizzle reads every kind of column the same either way.
 */
export async function withDrizzleParsers(client: PGlite): Promise<PGlite> {
  // The first query installs the parsers of every array type; Drizzle's overrides go on top.
  await client.query('select 1');
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = keepText;
  return withoutQueryParsers(client);
}

function withoutParsers(options: QueryOptions): QueryOptions {
  if (!options?.parsers) return options;
  const { parsers: _dropped, ...rest } = options;
  return rest;
}

function withoutQueryParsers<T extends Queryable>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (property === 'query') {
        const query: PGlite['query'] = (sql, params, options) =>
          object.query(sql, params, withoutParsers(options));
        return query;
      }
      if (property === 'transaction' && object.transaction) {
        const transaction = object.transaction.bind(object);
        return <R>(run: (tx: Transaction) => Promise<R>) =>
          transaction((tx) => run(withoutQueryParsers(tx)));
      }
      const value: unknown = Reflect.get(object, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(object)
        : value;
    },
  });
}
