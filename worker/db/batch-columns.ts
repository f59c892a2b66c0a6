import { sql, type Column, type SQL } from "drizzle-orm";

/**
 * The same columns under `prefix_`-ed result names, decoded as before. D1 batch results come back keyed by
 * column name, so a batched join whose tables share a column name (`member_id`, `blur`) would lose one of
 * them; renaming one side keeps both.
 */
export function renamed<T extends Record<string, Column>>(columns: T, prefix: string) {
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, sql`${column}`.mapWith(column).as(`${prefix}_${column.name}`)]),
  ) as { [K in keyof T]: SQL.Aliased<T[K]["_"]["data"] | (T[K]["_"]["notNull"] extends true ? never : null)> };
}
