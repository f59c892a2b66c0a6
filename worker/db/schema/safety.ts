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

/**
 * Muted words (migration 0031): the member's own phrases that hide content containing them from that member only.
 * `phraseNorm` is the match form (muted-words-match.ts); `expiresAt` null = forever, a past one no longer applies.
 */
export const mutedWords = sqliteTable(
  "muted_words",
  {
    idMutedWord: integer("id_muted_word").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    phrase: text("phrase").notNull(),
    phraseNorm: text("phrase_norm").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [uniqueIndex("muted_words_member_phrase").on(t.memberId, t.phraseNorm), index("muted_words_project").on(t.projectCode, t.expiresAt)],
);
