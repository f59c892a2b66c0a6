-- Requests tray and notification filters (README Decisions "Filters for requests and notifications"): one row per
-- member who set them (no row = nothing filtered). One set of criteria — account younger than newer_than_days days
-- (0 = off), no avatar, not followed by the owner — applied to the requests tray (in_requests) and to notifications
-- (in_notifications). A filtered sender's request or notice is kept, shown only in the "Filtered" section, and
-- never sounds or pushes. Read and written only by its owner.
CREATE TABLE `member_filters` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`newer_than_days` integer DEFAULT 0 NOT NULL,
	`no_avatar` integer DEFAULT 0 NOT NULL,
	`not_followed` integer DEFAULT 0 NOT NULL,
	`in_requests` integer DEFAULT 1 NOT NULL,
	`in_notifications` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL
);
