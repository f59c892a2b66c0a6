import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** Who owns whom (§4 Submember). A member has at most one master. The market (§4) builds on it. */
export const submembers = sqliteTable(
  "submembers",
  {
    memberId: text("member_id").primaryKey(),
    projectCode: text("project_code").notNull(),
    masterMemberId: text("master_member_id").notNull(),
    joinedAt: integer("joined_at").notNull(),
  },
  (t) => [index("submembers_master").on(t.projectCode, t.masterMemberId)],
);
