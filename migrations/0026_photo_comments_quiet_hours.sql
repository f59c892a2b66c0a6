-- Photo comment counts (README Decisions "Photo comment counts"): a member's personal chatroom id is the md5 of
-- their member code (§2), and SQLite has no md5, so the worker writes the room → owner mapping: at sign-up, and for
-- members who signed up before this migration the first time a comment lands in their room (the worker fills the
-- tenant's missing rows). banners.thread_count is then recounted from chat_messages on each post and delete.
CREATE TABLE `personal_chatrooms` (
	`project_code` text NOT NULL,
	`chatroom_id` text NOT NULL,
	`member_id` text NOT NULL,
	PRIMARY KEY(`project_code`, `chatroom_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `personal_chatrooms_member` ON `personal_chatrooms` (`member_id`);
--> statement-breakpoint
-- Quiet hours for web push (README Decisions "Push that reaches a closed app"): one row per member who set them
-- (no row = off). Hours are whole hours 0-23 in the member's IANA time zone; start inclusive, end exclusive, and a
-- start after the end spans midnight. Read and written only by its owner.
CREATE TABLE `push_quiet_hours` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`start_hour` integer NOT NULL,
	`end_hour` integer NOT NULL,
	`time_zone` text NOT NULL,
	`updated_at` integer NOT NULL
);
