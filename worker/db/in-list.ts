import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `column in (…)` with the whole list bound as ONE JSON parameter. D1 caps bound parameters per statement
 * (100), so `inArray` over a page of ids had to be chunked into several sequential round trips; one
 * `json_each` keeps it one statement of any size, and one batch member.
 */
export function inJson(column: SQLWrapper, values: readonly (string | number)[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}
