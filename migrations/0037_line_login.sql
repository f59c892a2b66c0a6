-- LINE login, bind, unbind (§7 Session; README Decisions "LINE login"; SECURITY.md "LINE login").
-- `line_accounts`: one LINE account per member (member_id is the key) and one member per LINE account in a tenant
-- (the unique index). Only the SHA-256 of LINE's user id (`sub`) is kept: nothing else of the LINE profile (name,
-- picture, email) is asked for or stored. Rows go with the account (member_id + project_code, privacy.service.ts).
CREATE TABLE `line_accounts` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`line_sub_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `line_accounts_sub` ON `line_accounts` (`project_code`,`line_sub_hash`);
--> statement-breakpoint
-- One row per started LINE sign-in (purpose login or bind: the state's SHA-256, the nonce, the PKCE code verifier
-- and the redirect URL it was started with) and per verified LINE user waiting for the adult confirmation (purpose
-- signup: the sub's hash). Spent by one conditional update (`used_at`), ten minutes at most; purged daily.
CREATE TABLE `line_auth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`purpose` text NOT NULL,
	`member_id` text,
	`nonce` text DEFAULT '' NOT NULL,
	`code_verifier` text DEFAULT '' NOT NULL,
	`redirect_url` text DEFAULT '' NOT NULL,
	`line_sub_hash` text,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `line_auth_states_expires` ON `line_auth_states` (`expires_at`);
