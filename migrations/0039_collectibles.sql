-- Collectibles (README Decisions "Collectibles and the daily lottery"): Velvet's own numbered editions of a member's
-- photo, no blockchain. One collectible per photo (`id_banner` unique: a limited edition stays limited), minted once per
-- client request id. Each edition has one owner and at most one live listing (`price` in hundredths, null = not for
-- sale); `listing_seq` counts listings, and `collectible_trades` is unique per (edition, listing), so one listing is
-- sold at most once even if two purchases race. Coins move only in `coin_ledger` rows keyed by the mint or trade id.
CREATE TABLE `collectibles` (
	`id_collectible` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_banner` integer NOT NULL,
	`creator_member_id` text NOT NULL,
	`edition_size` integer NOT NULL CHECK (`edition_size` BETWEEN 1 AND 100),
	`gas` integer NOT NULL,
	`request_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectibles_banner` ON `collectibles` (`id_banner`);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectibles_request` ON `collectibles` (`creator_member_id`,`request_id`);
--> statement-breakpoint
CREATE TABLE `collectible_editions` (
	`id_edition` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_collectible` integer NOT NULL,
	`serial` integer NOT NULL,
	`owner_member_id` text NOT NULL,
	`price` integer CHECK (`price` IS NULL OR (`price` > 0 AND `price` % 100 = 0)),
	`listing_seq` integer DEFAULT 0 NOT NULL,
	`listed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectible_editions_serial` ON `collectible_editions` (`id_collectible`,`serial`);
--> statement-breakpoint
CREATE INDEX `collectible_editions_owner` ON `collectible_editions` (`owner_member_id`,`id_edition`);
--> statement-breakpoint
CREATE INDEX `collectible_editions_listed` ON `collectible_editions` (`project_code`,`listed_at`);
--> statement-breakpoint
CREATE TABLE `collectible_trades` (
	`id_trade` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_edition` integer NOT NULL,
	`listing_seq` integer NOT NULL,
	`seller_member_id` text NOT NULL,
	`buyer_member_id` text NOT NULL,
	`price` integer NOT NULL,
	`gas` integer NOT NULL,
	`request_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectible_trades_listing` ON `collectible_trades` (`id_edition`,`listing_seq`);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectible_trades_request` ON `collectible_trades` (`buyer_member_id`,`request_id`);
--> statement-breakpoint
CREATE INDEX `collectible_trades_seller` ON `collectible_trades` (`seller_member_id`,`id_trade`);
