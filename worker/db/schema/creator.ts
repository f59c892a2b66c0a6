import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import type { StoredCreatorLink } from "../../contract/creator";

/** §3 Creator profile (migration 0041, README Decisions "DNA pairing and creator profiles"). No row = none. */
export const creatorProfiles = sqliteTable("creator_profiles", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  introduction: text("introduction").notNull().default(""),
  websiteUrl: text("website_url").notNull().default(""),
  company: text("company").notNull().default(""),
  title: text("title").notNull().default(""),
  location: text("location").notNull().default(""),
  /** At most 10 links, written only by creator-profile.ts after validation (http(s) urls, own `logo` uploads). */
  links: text("links", { mode: "json" }).$type<StoredCreatorLink[]>().notNull().default([]),
  updatedAt: integer("updated_at").notNull(),
});
