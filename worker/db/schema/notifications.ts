import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

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

/**
 * Web push subscriptions (migration 0025, README Decisions "Push that reaches a closed app"): one per browser and
 * session; the endpoint is unique. Removed on logout of that session, with the account, and on a 404/410 answer.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    idSubscription: integer("id_subscription").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    sessionId: text("session_id").notNull(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint").on(t.endpoint),
    index("push_subscriptions_member").on(t.memberId),
    index("push_subscriptions_session").on(t.sessionId),
  ],
);

/**
 * Quiet hours for web push (migration 0026): no row = off. Whole hours in the member's IANA time zone, start
 * inclusive, end exclusive; start > end spans midnight. Only its owner reads or writes it.
 */
export const pushQuietHours = sqliteTable("push_quiet_hours", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  startHour: integer("start_hour").notNull(),
  endHour: integer("end_hour").notNull(),
  timeZone: text("time_zone").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
