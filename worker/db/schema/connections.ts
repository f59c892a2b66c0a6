import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { CONNECTIONS_AUDIENCES } from "../../contract/connections.constants";

/**
 * Who sees a member's followers, following, friends and sub-member lists and counts (migration 0027, README Decisions
 * "Who sees my connections"). No row = everyone.
 */
export const connectionVisibility = sqliteTable("connection_visibility", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  audience: text("audience", { enum: CONNECTIONS_AUDIENCES }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});
