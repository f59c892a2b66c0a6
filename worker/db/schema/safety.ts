import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from "drizzle-orm/sqlite-core";

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
    /** Migration 0032: the blocker also blocks new accounts sharing this member's signals (block-evasion.ts). */
    alsoNewAccounts: integer("also_new_accounts", { mode: "boolean" }).notNull().default(false),
    /** Written by block evasion for a new account (migration 0034): never listed to the blocker. */
    madeByEvasion: integer("made_by_evasion", { mode: "boolean" }).notNull().default(false),
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

/**
 * Migration 0032: sign-in signals as HMAC-SHA-256 under SIGNAL_SECRET (tenant, kind, value), never the raw address or
 * device id; purged SIGNAL_LIFETIME after last seen (retention.ts).
 */
export const accountSignals = sqliteTable(
  "account_signals",
  {
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    kind: text("kind", { enum: ["address", "device"] }).notNull(),
    hash: text("hash").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.kind, t.hash] }),
    index("account_signals_hash").on(t.projectCode, t.hash),
    index("account_signals_seen").on(t.lastSeenAt),
  ],
);

/** Migration 0032: a blocked account's signal hashes, remembered for a blocker who chose "also new accounts". */
export const evasionWatches = sqliteTable(
  "evasion_watches",
  {
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    blockedMemberId: text("blocked_member_id").notNull(),
    hash: text("hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.blockedMemberId, t.hash] }), index("evasion_watches_hash").on(t.projectCode, t.hash)],
);

/** Migration 0032: one reported item hidden from its reporter only, until an operator decides. */
export const reportHides = sqliteTable(
  "report_hides",
  {
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    kind: text("kind", { enum: ["chat", "guestbook"] }).notNull(),
    itemId: integer("item_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.kind, t.itemId] })],
);
