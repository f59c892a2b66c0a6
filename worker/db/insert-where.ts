import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

/**
 * `insert into <table> select <values> where <condition>`: an insert that decides for itself, so it can ride in
 * the same D1 batch as the reads that would otherwise have to come back first (a batch is one transaction).
 * Columns missing from `values` take their default (the autoincrement key: null, so SQLite assigns it).
 */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, values: Partial<T["$inferInsert"]>, condition: SQL) {
  const fields: Record<string, SQL.Aliased> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const given = (values as Record<string, unknown>)[key];
    const value = given !== undefined ? given : (column.default ?? null);
    fields[key] = sql`${typeof value === "boolean" ? Number(value) : value}`.as(column.name);
  }
  return db.insert(table).select(db.select(fields).from(sql`(select 1)`).where(condition) as never);
}
