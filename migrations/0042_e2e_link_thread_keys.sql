-- Private thread replies' keys re-wrapped for a member's linked device (README Decisions "Linking a second device"):
-- as e2e_link_keys, keyed by the thread reply instead of the chat message. RSA-OAEP-wrapped for the target device
-- only, owner-only, at most E2E_MAX_LINKED_KEYS per device. Rows go with the device and the account.
CREATE TABLE `e2e_link_thread_keys` (
	`id_link_key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`device_id` text NOT NULL,
	`id_chat_message_thread` integer NOT NULL,
	`wrapped_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `e2e_link_thread_keys_device_thread` ON `e2e_link_thread_keys` (`member_id`,`device_id`,`id_chat_message_thread`);
