-- Web push subscriptions (README Decisions "Push that reaches a closed app"): one row per browser (device) and
-- session. The endpoint is a capability URL of the browser's push service, unique across the whole table. A row
-- is removed when its session logs out, with the account, and when the push service answers 404/410; rows of an
-- otherwise ended session are never sent to (delivery joins live sessions).
CREATE TABLE `push_subscriptions` (
	`id_subscription` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`session_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint` ON `push_subscriptions` (`endpoint`);
--> statement-breakpoint
CREATE INDEX `push_subscriptions_member` ON `push_subscriptions` (`member_id`);
--> statement-breakpoint
CREATE INDEX `push_subscriptions_session` ON `push_subscriptions` (`session_id`);
