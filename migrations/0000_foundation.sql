CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`simple_code` text NOT NULL,
	`referral_code` text NOT NULL,
	`referred_by` text,
	`referral_count` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`last_login_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_project_email` ON `members` (`project_code`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_project_code` ON `members` (`project_code`,`simple_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_referral` ON `members` (`referral_code`);--> statement-breakpoint
CREATE TABLE `otp_codes` (
	`member_id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `password_resets` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`project_code` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`project_code` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_member` ON `sessions` (`member_id`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`id_profile` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` text NOT NULL,
	`project_code` text NOT NULL,
	`simple_code` text NOT NULL,
	`nickname` text DEFAULT '' NOT NULL,
	`introduction` text DEFAULT '' NOT NULL,
	`avator` text DEFAULT '' NOT NULL,
	`qualify` integer DEFAULT false NOT NULL,
	`blur` integer DEFAULT false NOT NULL,
	`blocked` integer DEFAULT false NOT NULL,
	`unqualified_count` integer DEFAULT 0 NOT NULL,
	`multi_gender` integer,
	`gender_locked` integer DEFAULT false NOT NULL,
	`look_for` integer DEFAULT 0 NOT NULL,
	`muted` integer DEFAULT false NOT NULL,
	`kyc_status` integer DEFAULT 0 NOT NULL,
	`birthday` text,
	`closed` integer DEFAULT false NOT NULL,
	`is_rainbow` integer DEFAULT false NOT NULL,
	`safeword` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`mobile` text DEFAULT '' NOT NULL,
	`default_address` text DEFAULT '' NOT NULL,
	`skype_id` text DEFAULT '' NOT NULL,
	`wechat_id` text DEFAULT '' NOT NULL,
	`telegram_id` text DEFAULT '' NOT NULL,
	`twitter_id` text DEFAULT '' NOT NULL,
	`instagram_id` text DEFAULT '' NOT NULL,
	`dcard_id` text DEFAULT '' NOT NULL,
	`website_url` text DEFAULT '' NOT NULL,
	`email_hash` text DEFAULT '' NOT NULL,
	`language` text,
	`public_key` text,
	`geohash` text,
	`latitude` real,
	`longitude` real,
	`bidding_count` integer DEFAULT 0 NOT NULL,
	`page_views` integer DEFAULT 0 NOT NULL,
	`last_access` integer,
	`last_chat_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profiles_member` ON `profiles` (`member_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `profiles_project_code` ON `profiles` (`project_code`,`simple_code`);--> statement-breakpoint
CREATE INDEX `profiles_project_access` ON `profiles` (`project_code`,`last_access`);--> statement-breakpoint
CREATE INDEX `profiles_project_created` ON `profiles` (`project_code`,`created_at`);--> statement-breakpoint
CREATE INDEX `profiles_project_chat` ON `profiles` (`project_code`,`last_chat_at`);--> statement-breakpoint
CREATE INDEX `profiles_project_gender` ON `profiles` (`project_code`,`multi_gender`);--> statement-breakpoint
CREATE INDEX `profiles_project_geohash` ON `profiles` (`project_code`,`geohash`);