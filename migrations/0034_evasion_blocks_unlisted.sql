-- Blocks made by block evasion (README Decisions "Block evasion and per-item reports") are marked, so the blocker's
-- own blocked list never names the new accounts: listing them would tell a blocker who the blocked person's other
-- accounts are (or who shares their browser).
ALTER TABLE `blocks` ADD `made_by_evasion` integer DEFAULT 0 NOT NULL;
