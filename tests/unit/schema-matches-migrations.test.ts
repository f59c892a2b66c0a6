import { env } from "cloudflare:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { is } from "drizzle-orm";
import { SQLiteTable as SQLiteTableClass } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";

// Migrations are hand-reviewed SQL; the drizzle schema is the typed model. They must agree.
const tables = Object.values(schema as Record<string, unknown>).filter((value): value is SQLiteTable => is(value, SQLiteTableClass));

describe("drizzle schema and migrations", () => {
  it("has every declared table, column and index in the migrated database", async () => {
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      const config = getTableConfig(table);
      const columns = await env.DB.prepare(`select name, "notnull" as not_null from pragma_table_info(?)`).bind(config.name).all<{ name: string; not_null: number }>();
      const actual = new Map(columns.results.map((c) => [c.name, c.not_null]));
      expect(actual.size, `table ${config.name} missing from migrations`).toBeGreaterThan(0);
      for (const column of config.columns) {
        expect(actual.has(column.name), `${config.name}.${column.name} missing from migrations`).toBe(true);
        if (!column.primary) expect(Boolean(actual.get(column.name)), `${config.name}.${column.name} nullability differs`).toBe(column.notNull);
      }
      const indexes = await env.DB.prepare(`select name from pragma_index_list(?)`).bind(config.name).all<{ name: string }>();
      const indexNames = new Set(indexes.results.map((i) => i.name));
      for (const index of config.indexes) {
        expect(indexNames.has(index.config.name), `index ${index.config.name} missing from migrations`).toBe(true);
      }
    }
  });
});
