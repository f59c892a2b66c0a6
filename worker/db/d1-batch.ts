import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { deferWrites } from "./deferred-writes";

const dialect = new SQLiteAsyncDialect();

/**
 * Runs raw drizzle `sql` statements as ONE D1 batch (atomic). drizzle's own `db.batch` cannot bind the
 * parameters of `db.run(sql)` items, and the conditional inserts here have no query-builder form.
 */
export function d1Batch(env: Env, queries: SQL[]) {
  return env.DB.batch(
    queries.map((query) => {
      const { sql, params } = dialect.sqlToQuery(query);
      return env.DB.prepare(sql).bind(...params);
    }),
  );
}

/** The same statements written after the response (db/deferred-writes.ts): a read's side effects stay off its path. */
export function deferD1Batch(env: Env, queries: SQL[]) {
  deferWrites(env, queries.map((query) => ({ toSQL: () => dialect.sqlToQuery(query) })));
}
