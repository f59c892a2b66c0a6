import type { Column } from "drizzle-orm";

/**
 * Columns read as ONE JSON value that SQLite builds (`json_object`), and how to read it back. A D1 result hands
 * the worker every selected value separately and converts each, and drizzle then decodes each again; for a page
 * of rows that was most of a list call's CPU in the API benchmark, while one JSON text per row parses natively.
 * Boolean columns (integer mode) come back as 0/1 and are turned into booleans; `extra` adds SQL expressions
 * (trusted text: column references and subqueries, no values) under their keys.
 */
export function rowJson(table: string, columns: Record<string, Column>, extra: Record<string, string> = {}) {
  const pairs = Object.entries(columns).map(([key, column]) => `'${key}', "${table}"."${column.name}"`);
  for (const [key, expression] of Object.entries(extra)) pairs.push(`'${key}', ${expression}`);
  const booleans = Object.entries(columns)
    .filter(([, column]) => column.columnType === "SQLiteBoolean")
    .map(([key]) => key);
  return {
    sql: `json_object(${pairs.join(", ")})`,
    /** Booleans fixed in place on an object parsed from this JSON (or nested in a larger one). */
    revive<T>(row: Record<string, unknown>): T {
      for (const key of booleans) row[key] = row[key] === 1;
      return row as T;
    },
  };
}

/**
 * SQL text of `Date#toISOString()` for an integer milliseconds column (`ref`: a trusted column reference), exact to
 * the millisecond (integer arithmetic; no float seconds). NULL stays NULL. Lets a JSON row carry its dates ready.
 */
export const isoSql = (ref: string) =>
  `case when ${ref} is null then null else strftime('%Y-%m-%dT%H:%M:%S', ${ref} / 1000, 'unixepoch') || printf('.%03dZ', ${ref} % 1000) end`;
