-- Shared kernel: blocks and mutes, notifications, the M-coin ledger, sub-member ownership.
CREATE TABLE `blocks` (
	`id_block` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer
);
CREATE UNIQUE INDEX `blocks_pair` ON `blocks` (`member_id`,`target_member_id`);
CREATE INDEX `blocks_target` ON `blocks` (`target_member_id`,`member_id`);
CREATE TABLE `mutes` (
	`id_mute` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer
);
CREATE UNIQUE INDEX `mutes_pair` ON `mutes` (`member_id`,`target_member_id`);
CREATE TABLE `notifications` (
	`id_notification` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`type` text NOT NULL,
	`actor_member_id` text,
	`params` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer
);
CREATE INDEX `notifications_member` ON `notifications` (`member_id`,`id_notification`);
CREATE TABLE `coin_ledger` (
	`id_entry` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`currency` text DEFAULT 'mcoin' NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`source_key` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `coin_ledger_once` ON `coin_ledger` (`project_code`,`member_id`,`currency`,`reason`,`source_key`);
CREATE INDEX `coin_ledger_member` ON `coin_ledger` (`member_id`,`currency`);
CREATE TABLE `submembers` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`master_member_id` text NOT NULL,
	`joined_at` integer NOT NULL
);
CREATE INDEX `submembers_master` ON `submembers` (`project_code`,`master_member_id`);
