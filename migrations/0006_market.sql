-- Market: hierarchy history, market listings and bidding loops, hot-search keywords, wallet transfers.
-- Drafted with npm run db:draft, reviewed. Ownership itself is submembers (0001); coins are coin_ledger (0001).
CREATE TABLE `bidding_loops` (
	`id_bidding_loop` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`target_member_id` text NOT NULL,
	`bidder_member_id` text NOT NULL,
	`request_key` text NOT NULL,
	`due_date` integer NOT NULL,
	`created_at` integer NOT NULL
);

CREATE UNIQUE INDEX `bidding_loops_request` ON `bidding_loops` (`request_key`);
CREATE INDEX `bidding_loops_target` ON `bidding_loops` (`target_member_id`,`id_bidding_loop`);
CREATE TABLE `hierarchy_history` (
	`id_hierarchy_history` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`parent_member_id` text NOT NULL,
	`event` text NOT NULL,
	`created_at` integer NOT NULL
);

CREATE INDEX `hierarchy_history_member` ON `hierarchy_history` (`member_id`,`id_hierarchy_history`);
CREATE TABLE `keyword_searches` (
	`project_code` text NOT NULL,
	`keyword` text NOT NULL,
	`member_id` text NOT NULL,
	`day` text NOT NULL,
	PRIMARY KEY(`project_code`, `keyword`, `member_id`, `day`)
);

CREATE TABLE `market_listings` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`seller_member_id` text NOT NULL,
	`last_bidder_member_id` text,
	`bidding_count` integer DEFAULT 0 NOT NULL,
	`due_date` integer NOT NULL,
	`listed_at` integer NOT NULL
);

CREATE INDEX `market_listings_project_listed` ON `market_listings` (`project_code`,`listed_at`);
CREATE INDEX `market_listings_due` ON `market_listings` (`due_date`);
CREATE TABLE `search_keywords` (
	`project_code` text NOT NULL,
	`keyword` text NOT NULL,
	`search_count` integer DEFAULT 0 NOT NULL,
	`last_searched_at` integer NOT NULL,
	PRIMARY KEY(`project_code`, `keyword`)
);

CREATE INDEX `search_keywords_rank` ON `search_keywords` (`project_code`,`search_count`);
CREATE TABLE `wallet_transfers` (
	`id_transfer` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`from_member_id` text NOT NULL,
	`to_member_id` text NOT NULL,
	`amount` integer NOT NULL,
	`coins` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`created_at` integer NOT NULL
);

CREATE UNIQUE INDEX `wallet_transfers_key` ON `wallet_transfers` (`from_member_id`,`idempotency_key`);
CREATE INDEX `wallet_transfers_from` ON `wallet_transfers` (`from_member_id`,`id_transfer`);
CREATE INDEX `wallet_transfers_to` ON `wallet_transfers` (`to_member_id`,`id_transfer`);
