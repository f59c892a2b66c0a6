import { SQL, is } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { deferWrites } from "./deferred-writes";

const dialect = new SQLiteAsyncDialect();

/** A drizzle query builder (select, insert, update, delete) or a compiled item: anything that renders its SQL. */
type Built = { toSQL(): { sql: string; params: unknown[] } };

/**
 * Raw drizzle `sql` statements and query builders as D1 statements, for a batch that must also carry SQL made from
 * table metadata (privacy erasure, README Decisions "One way to reach D1"): one atomic batch, one round trip.
 */
export function d1Statements(env: Env, queries: readonly (SQL | Built)[]): D1PreparedStatement[] {
  return queries.map((query) => {
    const { sql, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
    return env.DB.prepare(sql).bind(...params);
  });
}

/**
 * Runs raw drizzle `sql` statements (and builders beside them) as ONE D1 batch (atomic). drizzle's own `db.batch`
 * cannot bind the parameters of `db.run(sql)` items, and the conditional inserts here have no query-builder form.
 */
export function d1Batch(env: Env, queries: readonly (SQL | Built)[]) {
  return env.DB.batch(d1Statements(env, queries));
}

/** The same statements written after the response (db/deferred-writes.ts): a read's side effects stay off its path. */
export function deferD1Batch(env: Env, queries: SQL[]) {
  deferWrites(env, queries.map((query) => ({ toSQL: () => dialect.sqlToQuery(query) })));
}
