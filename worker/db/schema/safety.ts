import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * A block is total and two-way: neither member sees the other anywhere.
 * `expiresAt` null = forever; a timed block lifts itself when the time passes.
 */
export const blocks = sqliteTable(
  "blocks",
  {
    idBlock: integer("id_block").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [
    // Member ids are globally unique, so the pair indexes need no project prefix.
    uniqueIndex("blocks_pair").on(t.memberId, t.targetMemberId),
    index("blocks_target").on(t.targetMemberId, t.memberId),
  ],
);

/** A mute hides the muted member's content and notifications from the muter only, silently. */
export const mutes = sqliteTable(
  "mutes",
  {
    idMute: integer("id_mute").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [uniqueIndex("mutes_pair").on(t.memberId, t.targetMemberId)],
);
