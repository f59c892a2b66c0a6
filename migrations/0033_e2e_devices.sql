-- End-to-end encryption devices (README Decisions "Verifiable end-to-end keys", SECURITY.md "End-to-end
-- encrypted private messages"): one row per browser (device) that holds a member's keys. The browser picks its
-- device id and keeps both private keys (non-extractable) in IndexedDB; the server stores only the two public keys
-- (SPKI, base64): RSA-OAEP-256 for wrapping message keys, ECDSA P-256 for signatures. At most 10 per member
-- (enforced by the API). Rows go with the account (member_id + project_code, privacy.service.ts).
CREATE TABLE `e2e_devices` (
	`id_device` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`device_id` text NOT NULL,
	`name` text NOT NULL,
	`encryption_key` text NOT NULL,
	`signing_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `e2e_devices_member_device` ON `e2e_devices` (`member_id`,`device_id`);
