-- Block evasion and per-item reports (README Decisions "Block evasion and per-item reports").
-- A member may block "and new accounts this person makes": the block carries the choice, and the blocked account's
-- signal hashes are remembered for the blocker (evasion_watches) until they are purged.
ALTER TABLE `blocks` ADD `also_new_accounts` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Privacy-preserving sign-in signals: HMAC-SHA-256 under SIGNAL_SECRET of the tenant and the client address or the
-- first-party device id, never the raw values. Written at sign-up and login; purged SIGNAL_LIFETIME after last seen.
CREATE TABLE `account_signals` (
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `kind`, `hash`)
);
--> statement-breakpoint
CREATE INDEX `account_signals_hash` ON `account_signals` (`project_code`,`hash`);
--> statement-breakpoint
CREATE INDEX `account_signals_seen` ON `account_signals` (`last_seen_at`);
--> statement-breakpoint
-- The blocked account's signal hashes as they were when the blocker chose "also new accounts"; purged with the
-- signals' lifetime after the block, and at once when the block is lifted or the choice withdrawn.
CREATE TABLE `evasion_watches` (
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`blocked_member_id` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `blocked_member_id`, `hash`)
);
--> statement-breakpoint
CREATE INDEX `evasion_watches_hash` ON `evasion_watches` (`project_code`,`hash`);
--> statement-breakpoint
-- One reported item hidden from its reporter only (a chat message or note, or a guestbook entry); others still see it
-- until an operator decides the report it belongs to.
CREATE TABLE `report_hides` (
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`kind` text NOT NULL,
	`item_id` integer NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `kind`, `item_id`)
);
