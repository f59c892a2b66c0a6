-- Who sees my connections (README Decisions "Who sees my connections"): one row per member who chose an audience
-- for their followers, following, friends and sub-member lists and counts. No row = 'everyone' (what every member
-- had before this migration). 'friends': accepted friends only; 'nobody': the member alone. Read by every route that
-- answers another member's connections (worker/features/social/connections-visibility.ts); written only by its owner.
CREATE TABLE `connection_visibility` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`audience` text NOT NULL,
	`updated_at` integer NOT NULL,
	CHECK (`audience` IN ('everyone', 'friends', 'nobody'))
);
