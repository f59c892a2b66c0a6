import { real, sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

/**
 * Every image a member uploaded through the media pipeline. Banners and avatars may only point at a
 * member's own uploads, and the server-side graphic flag travels with the key (never trusted from the client).
 */
export const mediaUploads = sqliteTable(
  "media_uploads",
  {
    key: text("key").primaryKey(),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    kind: text("kind").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    graphic: integer("graphic", { mode: "boolean" }).notNull().default(false),
    /** The blurred rendition's own key (migration 0012; null for older uploads). */
    renditionKey: text("rendition_key"),
    /** SHA-256 of the stored bytes (migration 0017; null for older uploads). */
    contentHash: text("content_hash"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("media_uploads_member").on(t.memberId, t.createdAt)],
);

/** §3 Banner or photo: a member's photo on their profile carousel, the home masonry and the photo review. */
export const banners = sqliteTable(
  "banners",
  {
    idBanner: integer("id_banner").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    memberNo: text("member_no").notNull(),
    image: text("image").notNull(),
    pickable: integer("pickable", { mode: "boolean" }).notNull().default(true),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    url: text("url").notNull().default(""),
    blur: integer("blur", { mode: "boolean" }).notNull().default(false),
    /** The blurred rendition of `image` (migration 0012), '' when there is none. */
    blurImage: text("blur_image").notNull().default(""),
    ratingSum: integer("rating_sum").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    threadCount: integer("thread_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("banners_project_created").on(t.projectCode, t.pickable, t.createdAt),
    index("banners_member").on(t.memberId, t.createdAt),
  ],
);

/** One rating per member per photo (§4 photo review, §9 M coin once per photo). */
export const bannerRatings = sqliteTable(
  "banner_ratings",
  {
    idBannerRating: integer("id_banner_rating").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idBanner: integer("id_banner").notNull(),
    memberId: text("member_id").notNull(),
    rating: integer("rating").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("banner_ratings_member").on(t.memberId, t.idBanner), index("banner_ratings_banner").on(t.idBanner)],
);

/** §3 Character (preference) catalogue; `projectCode` '*' rows are shared by every tenant. */
export const characters = sqliteTable(
  "characters",
  {
    idCharacter: integer("id_character").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    title: text("title").notNull(),
    level: integer("level").notNull().default(1),
  },
  (t) => [uniqueIndex("characters_title").on(t.projectCode, t.title)],
);

export const userCharacters = sqliteTable(
  "user_characters",
  {
    idUserCharacter: integer("id_user_character").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    idCharacter: integer("id_character").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("user_characters_member").on(t.memberId, t.idCharacter),
    index("user_characters_character").on(t.projectCode, t.idCharacter, t.createdAt),
  ],
);

/** §3 Visitor: the latest visit of one member to another's profile (footprints), one row per pair. */
export const visitors = sqliteTable(
  "visitors",
  {
    idVisitor: integer("id_visitor").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    visitorId: text("visitor_id").notNull(),
    visitCount: integer("visit_count").notNull().default(1),
    dateUpd: integer("date_upd").notNull(),
  },
  (t) => [uniqueIndex("visitors_pair").on(t.memberId, t.visitorId), index("visitors_member_recent").on(t.memberId, t.dateUpd)],
);

/** §3 Action stats: how active a member is per UTC hour (the public profile's 24-hour chart). */
export const actionStats = sqliteTable(
  "action_stats",
  {
    memberId: text("member_id").notNull(),
    projectCode: text("project_code").notNull(),
    actionHour: integer("action_hour").notNull(),
    actionCount: integer("action_count").notNull().default(0),
  },
  (t) => [uniqueIndex("action_stats_member_hour").on(t.memberId, t.actionHour)],
);

/** Members who already marked a profile unqualified (§4: 10 block taps), so one member counts once. */
export const unqualifiedReports = sqliteTable(
  "unqualified_reports",
  {
    idProfile: integer("id_profile").notNull(),
    reporterId: text("reporter_id").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Migration 0017: open until an operator decides; the reporter's weight when the mark was made. */
    status: text("status", { enum: ["open", "upheld", "dismissed"] }).notNull().default("open"),
    weight: real("weight").notNull().default(0),
  },
  (t) => [uniqueIndex("unqualified_reports_pair").on(t.idProfile, t.reporterId)],
);
