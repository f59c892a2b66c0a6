-- The daily lottery (README Decisions "Collectibles and the daily lottery"): one draw per tenant and UTC day. The row is
-- created with a random `seed` and its SHA-256 `commitment` before any entry can exist (an entry is inserted only while
-- its draw is open), and only the commitment is shown until the scheduled job draws it after the day ends and sets
-- `drawn_at`; then the seed, the ordered tickets and the winning index are published so anyone can re-run the formula.
-- A ticket is random and anonymous: checking a draw names nobody. One entry per member and day.
CREATE TABLE `lottery_draws` (
	`id_draw` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`draw_date` text NOT NULL,
	`seed` text NOT NULL,
	`commitment` text NOT NULL,
	`prize` integer NOT NULL,
	`entry_count` integer DEFAULT 0 NOT NULL,
	`winner_index` integer,
	`winner_ticket` text,
	`winner_member_id` text,
	`drawn_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_draws_day` ON `lottery_draws` (`project_code`,`draw_date`);
--> statement-breakpoint
CREATE INDEX `lottery_draws_due` ON `lottery_draws` (`drawn_at`,`draw_date`);
--> statement-breakpoint
CREATE TABLE `lottery_entries` (
	`id_entry` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`draw_date` text NOT NULL,
	`member_id` text NOT NULL,
	`ticket` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_entries_member` ON `lottery_entries` (`project_code`,`draw_date`,`member_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_entries_ticket` ON `lottery_entries` (`ticket`);
