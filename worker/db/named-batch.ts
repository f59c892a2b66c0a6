// Named D1 batches: several statements in one round trip, their results read back by name (README Decisions "Named batches").
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";
import { compiled } from "./compiled";
import { d1Batch } from "./d1-batch";

/** One item of drizzle's D1 `db.batch` (a query, an insert/update/delete, or a `compiled` item). */
export type BatchItem = Parameters<Db["batch"]>[0][number];

/** The results of a named batch: each name's rows (or `returning` rows), an optional name's possibly undefined. */
export type NamedResults<R> = { -readonly [K in keyof R]: Awaited<R[K]> };

/**
 * Runs the named statements (and then `also`, whose results nobody reads) as ONE `db.batch`: one round trip,
 * atomic like any D1 batch. A name whose statement is `undefined` is left out of the batch and reads as undefined,
 * so a caller adds a statement only when it needs it without counting positions.
 */
export async function namedBatch<const R extends Record<string, BatchItem | undefined>>(
  db: Db,
  named: R,
  also: readonly BatchItem[] = [],
): Promise<NamedResults<R>> {
  const names = Object.keys(named).filter((name) => named[name] !== undefined);
  const items = [...names.map((name) => named[name]!), ...also];
  if (items.length === 0) return {} as NamedResults<R>;
  const results = await db.batch(items as unknown as [BatchItem, ...BatchItem[]]);
  return Object.fromEntries(names.map((name, i) => [name, results[i]])) as NamedResults<R>;
}

/**
 * `namedBatch` for raw `sql` statements (`d1Batch`: conditional inserts with no builder form): ONE D1 batch, each
 * name's D1 result (`meta.changes`, rows) read by name. An `undefined` statement is left out and reads as undefined.
 */
export async function namedD1Batch<const R extends Record<string, SQL | undefined>>(
  env: Env,
  named: R,
): Promise<{ -readonly [K in keyof R]: undefined extends R[K] ? D1Result | undefined : D1Result }> {
  const names = Object.keys(named).filter((name) => named[name] !== undefined);
  if (names.length === 0) return {} as never;
  const results = await d1Batch(env, names.map((name) => named[name]!));
  return Object.fromEntries(names.map((name, i) => [name, results[i]])) as never;
}

type Preparable = { prepare(): unknown };

/**
 * `compiled` (compiled.ts) for a builder that names its statements: rendered once per isolate, each call only
 * binds, and hands back the same names for `namedBatch`. The builder's names are fixed like its shape.
 */
export function compiledNamed<V extends Record<string, unknown>, R extends Record<string, Preparable>>(
  build: (db: Db, p: { [K in keyof V]: V[K] }) => R,
): (db: Db, values: V) => R {
  let names: string[] = [];
  const statements = compiled<V, Db, Preparable[]>((db, p) => {
    const record = build(db, p);
    names = Object.keys(record);
    return Object.values(record);
  });
  return (db, values) => {
    const items = statements(db, values);
    return Object.fromEntries(names.map((name, i) => [name, items[i]])) as unknown as R;
  };
}
