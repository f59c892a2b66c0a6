-- Profiles, media and member discovery.
-- Profiles: zodiac sign derived from birthday, and partial indexes so discovery lists never scan the table.
ALTER TABLE `profiles` ADD `zodiac_sign` text;
CREATE INDEX `profiles_listed_views` ON `profiles` (`project_code`,`page_views`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_created` ON `profiles` (`project_code`,`created_at`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_access` ON `profiles` (`project_code`,`last_access`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_chat` ON `profiles` (`project_code`,`last_chat_at`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_updated` ON `profiles` (`project_code`,`updated_at`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_gender` ON `profiles` (`project_code`,`multi_gender`,`last_access`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_zodiac` ON `profiles` (`project_code`,`zodiac_sign`,`last_access`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_listed_language` ON `profiles` (`project_code`,`language`,`look_for`,`last_access`) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE INDEX `profiles_project_id` ON `profiles` (`project_code`,`id_profile`);
CREATE INDEX `profiles_listed_birthday` ON `profiles` (`project_code`,substr("birthday", 6)) WHERE "profiles"."avator" <> '' and "profiles"."qualify" = 1 and "profiles"."blur" = 0 and "profiles"."blocked" = 0;
CREATE TABLE `action_stats` (
	`member_id` text NOT NULL,
	`project_code` text NOT NULL,
	`action_hour` integer NOT NULL,
	`action_count` integer DEFAULT 0 NOT NULL
);
CREATE UNIQUE INDEX `action_stats_member_hour` ON `action_stats` (`member_id`,`action_hour`);
CREATE TABLE `banner_ratings` (
	`id_banner_rating` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_banner` integer NOT NULL,
	`member_id` text NOT NULL,
	`rating` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `banner_ratings_member` ON `banner_ratings` (`member_id`,`id_banner`);
CREATE INDEX `banner_ratings_banner` ON `banner_ratings` (`id_banner`);
CREATE TABLE `banners` (
	`id_banner` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`member_no` text NOT NULL,
	`image` text NOT NULL,
	`pickable` integer DEFAULT true NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`blur` integer DEFAULT false NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`thread_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `banners_project_created` ON `banners` (`project_code`,`pickable`,`created_at`);
CREATE INDEX `banners_member` ON `banners` (`member_id`,`created_at`);
CREATE TABLE `characters` (
	`id_character` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`title` text NOT NULL,
	`level` integer DEFAULT 1 NOT NULL
);
CREATE UNIQUE INDEX `characters_title` ON `characters` (`project_code`,`title`);
CREATE TABLE `media_uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`kind` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`graphic` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `media_uploads_member` ON `media_uploads` (`member_id`,`created_at`);
CREATE TABLE `unqualified_reports` (
	`id_profile` integer NOT NULL,
	`reporter_id` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `unqualified_reports_pair` ON `unqualified_reports` (`id_profile`,`reporter_id`);
CREATE TABLE `user_characters` (
	`id_user_character` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`id_character` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `user_characters_member` ON `user_characters` (`member_id`,`id_character`);
CREATE INDEX `user_characters_character` ON `user_characters` (`project_code`,`id_character`,`created_at`);
CREATE TABLE `visitors` (
	`id_visitor` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`visitor_id` text NOT NULL,
	`visit_count` integer DEFAULT 1 NOT NULL,
	`date_upd` integer NOT NULL
);
CREATE UNIQUE INDEX `visitors_pair` ON `visitors` (`member_id`,`visitor_id`);
CREATE INDEX `visitors_member_recent` ON `visitors` (`member_id`,`date_upd`);
-- The shared preference catalogue (§3 Character), available to every tenant.
INSERT INTO `characters` (`project_code`, `title`, `level`) VALUES
  ('*', 'bondage', 1), ('*', 'shibari', 2), ('*', 'discipline', 1), ('*', 'spanking', 1), ('*', 'roleplay', 1),
  ('*', 'protocol', 2), ('*', 'petplay', 2), ('*', 'service', 1), ('*', 'sensation', 1), ('*', 'waxplay', 2),
  ('*', 'impact', 2), ('*', 'praise', 1), ('*', 'aftercare', 1), ('*', 'photography', 1), ('*', 'collaring', 3),
  ('*', 'tease', 1), ('*', 'obedience', 2), ('*', 'humiliation', 3), ('*', 'cosplay', 1), ('*', 'munches', 1);
