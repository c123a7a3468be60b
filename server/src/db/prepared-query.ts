import type { Database } from './database.js';

/**
 * A query built once per database and then run with new values (Drizzle's prepared statement).
 * Building a query's SQL costs about as much CPU as PGlite takes to run it, and the queries of a hot
 * path (every socket open) would pay it every time; on PostgreSQL the statement is also parsed once
 * per connection. `build` must name its statement uniquely and take every value as a placeholder.
 */
export function preparedPerDatabase<Q>(build: (db: Database) => Q): (db: Database) => Q {
  const built = new WeakMap<Database, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
