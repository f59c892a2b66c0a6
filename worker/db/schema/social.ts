import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Social graph and member safety. Blocks and mutes live in safety.ts (kernel); every table
 * here carries `project_code`, and pair indexes lead with the member id (ids are globally unique).
 */

/** `memberId` follows `targetMemberId`. */
export const follows = sqliteTable(
  "follows",
  {
    idFollow: integer("id_follow").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("follows_pair").on(t.memberId, t.targetMemberId),
    // Lists page newest first by id (cursor = idFollow).
    index("follows_member").on(t.memberId, t.idFollow),
    index("follows_target").on(t.targetMemberId, t.idFollow),
  ],
);

/** A pending follow of a member who approves followers (migration 0028): `memberId` asks to follow `targetMemberId`. */
export const followRequests = sqliteTable(
  "follow_requests",
  {
    idFollowRequest: integer("id_follow_request").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("follow_requests_pair").on(t.memberId, t.targetMemberId), index("follow_requests_target").on(t.targetMemberId, t.idFollowRequest)],
);

/** §4 friend status: a request from `requesterId` to `addresseeId`, then accepted (rejecting deletes it). */
export const friendships = sqliteTable(
  "friendships",
  {
    idFriendship: integer("id_friendship").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    requesterId: text("requester_id").notNull(),
    addresseeId: text("addressee_id").notNull(),
    status: text("status", { enum: ["requested", "accepted"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("friendships_pair").on(t.requesterId, t.addresseeId),
    index("friendships_addressee").on(t.addresseeId, t.status),
    index("friendships_requester").on(t.requesterId, t.status),
  ],
);

export const favourites = sqliteTable(
  "favourites",
  {
    idFavourite: integer("id_favourite").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("favourites_pair").on(t.memberId, t.targetMemberId), index("favourites_member").on(t.memberId, t.idFavourite)],
);

/** §8: one report per reporter and target; enough distinct reporters suspend the target. */
export const reports = sqliteTable(
  "reports",
  {
    idReport: integer("id_report").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    /** Migration 0017: a moderation queue; an operator upholds or dismisses. */
    status: text("status", { enum: ["open", "upheld", "dismissed"] }).notNull().default("open"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    outcome: text("outcome"),
  },
  (t) => [
    uniqueIndex("reports_pair").on(t.memberId, t.targetMemberId),
    index("reports_target").on(t.targetMemberId),
    index("reports_open").on(t.projectCode, t.status, t.targetMemberId),
  ],
);

/** §3 Guestbook entry: `authorMemberId` wrote `message` into `ownerMemberId`'s guestbook. */
export const guestbookEntries = sqliteTable(
  "guestbook_entries",
  {
    idGuestbook: integer("id_guestbook").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    ownerMemberId: text("owner_member_id").notNull(),
    authorMemberId: text("author_member_id").notNull(),
    message: text("message").notNull(),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
  },
  (t) => [
    index("guestbook_owner").on(t.ownerMemberId, t.idGuestbook),
    index("guestbook_owner_unread").on(t.ownerMemberId, t.readAt),
    index("guestbook_pair").on(t.ownerMemberId, t.authorMemberId, t.idGuestbook),
    index("guestbook_author").on(t.authorMemberId, t.createdAt),
  ],
);

/** §4 Flame: each hand-over is a row; the newest row of a tenant is the current holder. */
export const flamePasses = sqliteTable(
  "flame_passes",
  {
    idFlamePass: integer("id_flame_pass").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    holderMemberId: text("holder_member_id").notNull(),
    fromMemberId: text("from_member_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("flame_project").on(t.projectCode, t.idFlamePass), index("flame_from").on(t.fromMemberId, t.createdAt)],
);

/** Per-member social settings: the Messages page e-mail alert switch and the §7 door-bell mark. */
export const socialSettings = sqliteTable("social_settings", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  emailAlerts: integer("email_alerts", { mode: "boolean" }).notNull().default(false),
  doorBellCheckedAt: integer("door_bell_checked_at"),
});

/**
 * A member's request to be verified (migration 0021, README Decisions "Verification"): open until the flame
 * holder approves it. One open request per member (partial unique index).
 */
export const verificationRequests = sqliteTable(
  "verification_requests",
  {
    idRequest: integer("id_request").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    status: text("status", { enum: ["open", "approved"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
  },
  (t) => [
    uniqueIndex("verification_requests_open").on(t.projectCode, t.memberId).where(sql`status = 'open'`),
    index("verification_requests_project").on(t.projectCode, t.status, t.idRequest),
  ],
);
