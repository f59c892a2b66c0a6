-- Approve followers (README Decisions "Approve followers"): a member may switch their profile to approve followers.
-- While it is on, a follow becomes a request (no `follows` row until the member accepts it), and members who do not
-- follow them are served what a visitor gets of them. Off by default: nothing changes for anyone until they choose it.
ALTER TABLE `profiles` ADD `approve_followers` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- One pending request per requester and target; accepting turns it into a `follows` row, declining or cancelling
-- deletes it, and a block either way deletes it with the pair's other edges.
CREATE TABLE `follow_requests` (
	`id_follow_request` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follow_requests_pair` ON `follow_requests` (`member_id`,`target_member_id`);
--> statement-breakpoint
-- The owner's list of pending requests, newest first (cursor = id).
CREATE INDEX `follow_requests_target` ON `follow_requests` (`target_member_id`,`id_follow_request`);
