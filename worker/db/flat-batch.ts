import { Column, SQL, is } from "drizzle-orm";
import { keptIn } from "../lib/kept";

/** A drizzle select whose fields are all top-level columns or `sql`…`.as(name)` values (no nested objects). */
type FlatSelect = PromiseLike<unknown> & { toSQL(): { sql: string; params: unknown[] } };
// drizzle keeps a select's fields behind an @internal method (in its runtime since 0.30; pinned in package.json).
type WithFields = { getSelectedFields(): Record<string, unknown> };
type Rows<Q> = Awaited<Q>;

/**
 * Runs flat drizzle selects as ONE D1 batch and maps their rows by result column name. drizzle's own mapping
 * checks every selected field's class on every row (`is()` walks prototypes); for page-sized reads (100 chat
 * messages, the home dashboard's ~230 rows) that was up to a fifth of the request's CPU in the API benchmark. Here each field's name and decoder are looked up
 * once per call. Same results as `db.batch` for such selects; nested selections are refused.
 */
export async function flatBatch<const Q extends readonly FlatSelect[]>(env: Env, queries: Q): Promise<{ -readonly [K in keyof Q]: Rows<Q[K]> }> {
  const plans = queries.map((query) => {
    const fields = (query as unknown as WithFields).getSelectedFields();
    return keptIn(plansByFields, fields, () => planOf(fields));
  });
  const statements = queries.map((query) => {
    const { sql, params } = query.toSQL();
    return env.DB.prepare(sql).bind(...params);
  });
  const results = await env.DB.batch<Record<string, unknown>>(statements);
  return results.map((result, i) => result.results.map(plans[i]!)) as { -readonly [K in keyof Q]: Rows<Q[K]> };
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };
type Plan = (row: Record<string, unknown>) => Record<string, unknown>;
// Compiled statements (compiled.ts) hand the same fields object every call: their plan is made once.
const plansByFields = new WeakMap<object, Plan>();

function planOf(fields: Record<string, unknown>): Plan {
  const plan: { key: string; name: string; decoder: Decoder }[] = [];
  const names = new Set<string>();
  for (const [key, field] of Object.entries(fields)) {
    let name: string;
    let decoder: Decoder;
    if (is(field, Column)) {
      name = field.name;
      decoder = field;
    } else if (is(field, SQL.Aliased)) {
      name = field.fieldAlias;
      decoder = (field.sql as unknown as { decoder: Decoder }).decoder;
    } else {
      throw new Error(`flatBatch: field "${key}" must be a column or an aliased sql value`);
    }
    // D1 rows are keyed by column name: two fields with one name would read the same value.
    if (names.has(name)) throw new Error(`flatBatch: result column "${name}" selected twice`);
    names.add(name);
    plan.push({ key, name, decoder });
  }
  return (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const { key, name, decoder } of plan) {
      const value = row[name];
      out[key] = value === null || value === undefined ? null : decoder.mapFromDriverValue(value);
    }
    return out;
  };
}
