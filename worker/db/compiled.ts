import { fillPlaceholders, sql } from "drizzle-orm";

/**
 * Statements of a fixed shape, rendered once per isolate. drizzle renders a query's SQL from its object tree on
 * every call; for a hot call of several statements that was some 40% of its CPU in the API benchmark (one
 * profile view: a 43-column select, relationship subqueries and three conditional writes). Here the builder
 * runs once with placeholders for the values; each call only binds.
 *
 * The builder sees placeholders, not values: it must not branch on them or compute with them (`v.at + DAY`);
 * such differences are separate shapes (separate `compiled` instances) or separate values.
 *
 * `compiled(build)` gives `(db, values) => items`: the builder's queries as items for `db.batch`, typed as
 * the builder's own queries (same results, same row mapping). Relies on drizzle's prepared-query object
 * (`getQuery`, `stmt`, `mapResult`), the shape its D1 `batch` reads; drizzle is pinned in package.json.
 */
export function compiled<V extends Record<string, unknown>, Db extends object, Q extends readonly Preparable[]>(
  build: (db: Db, p: { [K in keyof V]: V[K] }) => Q,
): (db: Db, values: V) => Q {
  const cache = new WeakMap<Db, Compiled[]>();
  return (db, values) => {
    let statements = cache.get(db);
    if (!statements) {
      // Every value the builder reads is a placeholder of the same name.
      const placeholders = new Proxy({}, { get: (_, name) => sql.placeholder(String(name)) }) as { [K in keyof V]: V[K] };
      statements = build(db, placeholders).map((query) => ({
        prepared: query.prepare() as PreparedQuery,
        fields: (query as { getSelectedFields?: () => Record<string, unknown> }).getSelectedFields?.(),
      }));
      cache.set(db, statements);
    }
    return statements.map((statement) => boundItem(statement, values)) as unknown as Q;
  };
}

type Preparable = { prepare(): unknown };
type Compiled = { prepared: PreparedQuery; fields: Record<string, unknown> | undefined };
type PreparedQuery = {
  getQuery(): { sql: string; params: unknown[] };
  stmt: D1PreparedStatement;
  mapResult(response: unknown, isFromBatch?: boolean): unknown;
};

/**
 * What drizzle's D1 `batch` asks of an item (`_prepare()`: the SQL, its parameters, the mapping), and what
 * `flatBatch` asks (`toSQL()`, `getSelectedFields()`).
 */
function boundItem({ prepared: query, fields }: Compiled, values: Record<string, unknown>) {
  const { sql: text, params } = query.getQuery();
  const bound = { sql: text, params: fillPlaceholders(params, values) };
  return {
    toSQL: () => bound,
    getSelectedFields: () => fields,
    _prepare: () => ({
      getQuery: () => bound,
      stmt: query.stmt,
      mapResult: (response: unknown, isFromBatch?: boolean) => query.mapResult(response, isFromBatch),
    }),
  };
}

