import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, real, uniqueIndex, index } from "drizzle-orm/sqlite-core";

/**
 * §5: lists hide members lacking avatar, unqualified, blurred or blocked. Discovery queries repeat this exact
 * text so SQLite can use the partial indexes below (migration 0002).
 */
export const LISTABLE_PROFILE = `"profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0`;

/** Every field of the §3 Profile entity. One row per member, created at sign-up. */
export const profiles = sqliteTable(
  "profiles",
  {
    idProfile: integer("id_profile").primaryKey({ autoIncrement: true }),
    memberId: text("member_id").notNull(),
    projectCode: text("project_code").notNull(),
    simpleCode: text("simple_code").notNull(),
    nickname: text("nickname").notNull().default(""),
    introduction: text("introduction").notNull().default(""),
    avator: text("avator").notNull().default(""),
    /** The blurred rendition of `avator` (migration 0012): what visitors, safe mode and viewers of a `blur` member get. */
    avatorBlur: text("avator_blur").notNull().default(""),
    qualify: integer("qualify", { mode: "boolean" }).notNull().default(false),
    blur: integer("blur", { mode: "boolean" }).notNull().default(false),
    blocked: integer("blocked", { mode: "boolean" }).notNull().default(false),
    unqualifiedCount: integer("unqualified_count").notNull().default(0),
    /** SHA-256 of the avatar an operator took down (migration 0017): the same file uploaded again stays unqualified. */
    avatorTakedownHash: text("avator_takedown_hash"),
    multiGender: integer("multi_gender"),
    genderLocked: integer("gender_locked", { mode: "boolean" }).notNull().default(false),
    lookFor: integer("look_for").notNull().default(0),
    muted: integer("muted", { mode: "boolean" }).notNull().default(false),
    kycStatus: integer("kyc_status").notNull().default(0),
    birthday: text("birthday"),
    closed: integer("closed", { mode: "boolean" }).notNull().default(false),
    isRainbow: integer("is_rainbow", { mode: "boolean" }).notNull().default(false),
    /** §4 safe-mode switch: the server sends this member renditions instead of others' originals (migration 0012). */
    safeMode: integer("safe_mode", { mode: "boolean" }).notNull().default(false),
    /** Whose avatars and photos this member gets as blurred renditions (stranger-media.ts; migration 0029). */
    strangerMedia: text("stranger_media", { enum: ["off", "notFollowed", "everyone"] }).notNull().default("off"),
    safeword: text("safeword").notNull().default(""),
    phone: text("phone").notNull().default(""),
    mobile: text("mobile").notNull().default(""),
    defaultAddress: text("default_address").notNull().default(""),
    skypeId: text("skype_id").notNull().default(""),
    wechatId: text("wechat_id").notNull().default(""),
    telegramId: text("telegram_id").notNull().default(""),
    twitterId: text("twitter_id").notNull().default(""),
    instagramId: text("instagram_id").notNull().default(""),
    dcardId: text("dcard_id").notNull().default(""),
    websiteUrl: text("website_url").notNull().default(""),
    emailHash: text("email_hash").notNull().default(""),
    language: text("language"),
    publicKey: text("public_key"),
    geohash: text("geohash"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Others see this member's approximate area (a cell) on maps and nearby only after opting in (migration 0016). */
    showPosition: integer("show_position", { mode: "boolean" }).notNull().default(false),
    /** Follows become requests the member accepts; non-followers get a visitor's view of them (migration 0028). */
    approveFollowers: integer("approve_followers", { mode: "boolean" }).notNull().default(false),
    biddingCount: integer("bidding_count").notNull().default(0),
    pageViews: integer("page_views").notNull().default(0),
    lastAccess: integer("last_access"),
    lastChatAt: integer("last_chat_at"),
    /** Derived from birthday on save, so the zodiac list is an indexed read. */
    zodiacSign: text("zodiac_sign"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("profiles_member").on(t.memberId),
    uniqueIndex("profiles_project_code").on(t.projectCode, t.simpleCode),
    index("profiles_project_access").on(t.projectCode, t.lastAccess),
    index("profiles_project_created").on(t.projectCode, t.createdAt),
    index("profiles_project_chat").on(t.projectCode, t.lastChatAt),
    index("profiles_project_gender").on(t.projectCode, t.multiGender),
    index("profiles_project_geohash").on(t.projectCode, t.geohash),
    // Discovery lists: partial indexes over listable members only.
    index("profiles_listed_views").on(t.projectCode, t.pageViews).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_created").on(t.projectCode, t.createdAt).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_access").on(t.projectCode, t.lastAccess).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_chat").on(t.projectCode, t.lastChatAt).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_updated").on(t.projectCode, t.updatedAt).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_gender").on(t.projectCode, t.multiGender, t.lastAccess).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_zodiac").on(t.projectCode, t.zodiacSign, t.lastAccess).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_listed_language").on(t.projectCode, t.language, t.lookFor, t.lastAccess).where(sql.raw(LISTABLE_PROFILE)),
    index("profiles_project_id").on(t.projectCode, t.idProfile),
    // Profile summaries by member id from the index alone (migrations 0009, 0012).
    index("profiles_member_summary").on(
      t.memberId, t.projectCode, t.simpleCode, t.nickname, t.avator, t.avatorBlur, t.qualify, t.blur, t.blocked, t.multiGender, t.lookFor, t.kycStatus, t.closed, t.isRainbow, t.lastAccess,
    ),
    // The feed's birthday strip (§9 max 20): month-day of the birthday.
    index("profiles_listed_birthday").on(t.projectCode, sql`substr(${t.birthday}, 6)`).where(sql.raw(LISTABLE_PROFILE)),
  ],
);

/**
 * Members per tenant, kept by triggers on `profiles` (migration 0008), so a count reads one row. The same
 * migration adds `profiles_search`, an FTS5 trigram index of nicknames (virtual tables are not modelled here).
 */
export const projectCounters = sqliteTable("project_counters", {
  projectCode: text("project_code").primaryKey(),
  members: integer("members").notNull().default(0),
});
