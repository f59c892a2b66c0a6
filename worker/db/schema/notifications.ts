import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** Stored as a type plus parameters; the browser renders them in the viewer's language (house style). */
export const notifications = sqliteTable(
  "notifications",
  {
    idNotification: integer("id_notification").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    type: text("type").notNull(),
    actorMemberId: text("actor_member_id"),
    params: text("params").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
  },
  (t) => [index("notifications_member").on(t.memberId, t.idNotification)],
);
