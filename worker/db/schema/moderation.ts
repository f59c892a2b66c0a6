import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Operators of a tenant (migration 0017): they decide the moderation queue. */
export const operators = sqliteTable(
  "operators",
  {
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    grantedBy: text("granted_by"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("operators_member").on(t.projectCode, t.memberId)],
);

/**
 * Every decision about a member — an operator's, or the automatic posting pause (`operatorId` null) — and the
 * member's one appeal against it (`appealStatus` open → upheld | refused).
 */
export const moderationActions = sqliteTable(
  "moderation_actions",
  {
    idAction: integer("id_action").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    operatorId: text("operator_id"),
    action: text("action", { enum: ["suspend", "takedown", "dismiss", "lift"] }).notNull(),
    /** For a suspension: its end in ms; null = until lifted. */
    until: integer("until"),
    createdAt: integer("created_at").notNull(),
    appeal: text("appeal"),
    appealedAt: integer("appealed_at"),
    appealStatus: text("appeal_status", { enum: ["open", "granted", "refused"] }),
    appealDecidedBy: text("appeal_decided_by"),
    appealDecidedAt: integer("appeal_decided_at"),
  },
  (t) => [index("moderation_actions_target").on(t.targetMemberId, t.idAction), index("moderation_actions_appeals").on(t.projectCode, t.appealStatus)],
);
