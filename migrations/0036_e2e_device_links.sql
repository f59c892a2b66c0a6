-- Linking a member's new end-to-end device from one they already use (README Decisions "Linking a second device",
-- SECURITY.md "End-to-end encrypted private messages"). The new device posts a tag: HMAC-SHA-256 over its own public
-- keys under a key derived from a one-time code it shows the member; the server keeps the tag for 10 minutes and
-- cannot check it or forge one (it never sees the code). The old device checks the tag, then re-wraps the message
-- keys it holds for the new device's encryption key: the server stores only those wrapped keys (RSA-OAEP, never a
-- key in the clear), owner-only, at most E2E_MAX_LINKED_KEYS per device. Rows go with the device and the account.
ALTER TABLE `e2e_devices` ADD `link_tag` text;
--> statement-breakpoint
ALTER TABLE `e2e_devices` ADD `link_expires_at` integer;
--> statement-breakpoint
CREATE TABLE `e2e_link_keys` (
	`id_link_key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`device_id` text NOT NULL,
	`id_chatroom_message` integer NOT NULL,
	`wrapped_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `e2e_link_keys_device_message` ON `e2e_link_keys` (`member_id`,`device_id`,`id_chatroom_message`);
