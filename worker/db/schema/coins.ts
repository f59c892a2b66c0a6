import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * M coins are a ledger, not a counter. `sourceKey` + reason + member is unique, so an award
 * retried or raced is stored once (INSERT OR IGNORE inside the action's own batch).
 */
export const coinLedger = sqliteTable(
  "coin_ledger",
  {
    idEntry: integer("id_entry").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    currency: text("currency", { enum: ["mcoin", "scoin"] }).notNull().default("mcoin"),
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    sourceKey: text("source_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("coin_ledger_once").on(t.projectCode, t.memberId, t.currency, t.reason, t.sourceKey),
    index("coin_ledger_member").on(t.memberId, t.currency),
  ],
);
