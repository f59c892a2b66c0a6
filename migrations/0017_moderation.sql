-- Moderation instead of mob rule (README Decisions "Moderation"). Reports and unqualified marks go to a queue that
-- operators of the tenant decide; automatic action is a temporary posting pause weighed by established reporters.

-- Operators of a tenant. The first one is granted with wrangler (README "Running in production"), later ones by an
-- operator from the moderation page.
CREATE TABLE `operators` (
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`granted_by` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_member` ON `operators` (`project_code`,`member_id`);
--> statement-breakpoint
-- Every decision (an operator's or the automatic pause) and the affected member's one appeal against it.
CREATE TABLE `moderation_actions` (
	`id_action` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`target_member_id` text NOT NULL,
	`operator_id` text,
	`action` text NOT NULL,
	`until` integer,
	`created_at` integer NOT NULL,
	`appeal` text,
	`appealed_at` integer,
	`appeal_status` text,
	`appeal_decided_by` text,
	`appeal_decided_at` integer
);
--> statement-breakpoint
CREATE INDEX `moderation_actions_target` ON `moderation_actions` (`target_member_id`,`id_action`);
--> statement-breakpoint
CREATE INDEX `moderation_actions_appeals` ON `moderation_actions` (`project_code`,`appeal_status`);
--> statement-breakpoint
ALTER TABLE `reports` ADD `status` text DEFAULT 'open' NOT NULL;
--> statement-breakpoint
ALTER TABLE `reports` ADD `decided_by` text;
--> statement-breakpoint
ALTER TABLE `reports` ADD `decided_at` integer;
--> statement-breakpoint
ALTER TABLE `reports` ADD `outcome` text;
--> statement-breakpoint
CREATE INDEX `reports_open` ON `reports` (`project_code`,`status`,`target_member_id`);
--> statement-breakpoint
ALTER TABLE `unqualified_reports` ADD `status` text DEFAULT 'open' NOT NULL;
--> statement-breakpoint
ALTER TABLE `unqualified_reports` ADD `weight` real DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A posting pause: sends are refused while it is in the future; null = none. Expiry needs no job.
ALTER TABLE `members` ADD `suspended_until` integer;
--> statement-breakpoint
-- SHA-256 of the stored avatar an operator took down: uploading the same file again stays unqualified.
ALTER TABLE `profiles` ADD `avator_takedown_hash` text;
--> statement-breakpoint
ALTER TABLE `media_uploads` ADD `content_hash` text;
--> statement-breakpoint
-- Suspensions made by report counts alone become pauses until an operator decides; the member is listed again.
UPDATE `profiles` SET `blocked` = 0 WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'suspended');
--> statement-breakpoint
UPDATE `members` SET `suspended_until` = 253402300799000, `status` = 'active' WHERE `status` = 'suspended';
