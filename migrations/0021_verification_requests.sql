-- Verification requests (README Decisions "Verification"): a member below kycStatus 1 asks the tenant's flame
-- holder to verify them. At most one open request per member (partial unique index); approving closes it.
CREATE TABLE `verification_requests` (
	`id_request` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`decided_by` text,
	`decided_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_requests_open` ON `verification_requests` (`project_code`,`member_id`) WHERE `status` = 'open';
--> statement-breakpoint
CREATE INDEX `verification_requests_project` ON `verification_requests` (`project_code`,`status`,`id_request`);
