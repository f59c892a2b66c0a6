-- Muted words (README Decisions "Muted words"): a member's own words or phrases that hide chat messages, notes,
-- thread replies, guestbook entries and message requests containing them, from that member only. `phrase` is what the
-- member typed (trimmed); `phrase_norm` is its match form (worker/features/safety/muted-words-match.ts: NFKC, lower
-- case), so SQL can pre-select candidates with instr() before the worker applies the rule. `expires_at` null =
-- forever; an expired row stops applying on its own (every read compares it with now). At most 100 per member.
CREATE TABLE `muted_words` (
	`id_muted_word` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`phrase` text NOT NULL,
	`phrase_norm` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `muted_words_member_phrase` ON `muted_words` (`member_id`,`phrase_norm`);
--> statement-breakpoint
CREATE INDEX `muted_words_project` ON `muted_words` (`project_code`,`expires_at`);
