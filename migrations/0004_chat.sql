-- Chat: messages, threads, reactions, read positions, connections, reminders,
-- message requests and contact settings, presence, web-push sources.
CREATE TABLE `chat_connections` (
	`id_connection` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_connections_pair` ON `chat_connections` (`member_id`,`target_member_id`);
--> statement-breakpoint
CREATE TABLE `chat_contact_settings` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`accept_from` text DEFAULT 'following' NOT NULL,
	`accept_roles` text DEFAULT '[]' NOT NULL,
	`presence_audience` text DEFAULT 'everyone' NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `chat_message_requests` (
	`id_request` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`from_member_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_message_requests_pair` ON `chat_message_requests` (`member_id`,`from_member_id`);
--> statement-breakpoint
CREATE INDEX `chat_message_requests_status` ON `chat_message_requests` (`member_id`,`status`);
--> statement-breakpoint
CREATE TABLE `chat_messages` (
	`id_chatroom_message` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`chatroom_id` text NOT NULL,
	`member_id` text NOT NULL,
	`member_no` text NOT NULL,
	`request_id` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`to_member_id` text,
	`to_member_no` text,
	`image_accepted` integer DEFAULT false NOT NULL,
	`thread_count` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`date_add` integer NOT NULL,
	`date_udp` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_messages_request` ON `chat_messages` (`member_id`,`request_id`);
--> statement-breakpoint
CREATE INDEX `chat_messages_room` ON `chat_messages` (`project_code`,`chatroom_id`,`id_chatroom_message`);
--> statement-breakpoint
CREATE INDEX `chat_messages_to` ON `chat_messages` (`to_member_id`,`id_chatroom_message`);
--> statement-breakpoint
CREATE INDEX `chat_messages_member` ON `chat_messages` (`member_id`,`id_chatroom_message`);
--> statement-breakpoint
CREATE TABLE `chat_presence` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`last_seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chat_presence_project` ON `chat_presence` (`project_code`,`last_seen_at`);
--> statement-breakpoint
CREATE TABLE `chat_push_sources` (
	`member_id` text NOT NULL,
	`source_key` text NOT NULL,
	`project_code` text NOT NULL,
	`source` text DEFAULT 'WEB_PUSH' NOT NULL,
	`last_count_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `source_key`)
);
--> statement-breakpoint
CREATE TABLE `chat_reactions` (
	`id_reaction` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_chatroom_message` integer NOT NULL,
	`member_id` text NOT NULL,
	`type` text DEFAULT 'emoji' NOT NULL,
	`react_emoji` text NOT NULL,
	`date_add` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_reactions_once` ON `chat_reactions` (`id_chatroom_message`,`member_id`);
--> statement-breakpoint
CREATE TABLE `chat_reads` (
	`member_id` text NOT NULL,
	`chatroom_id` text NOT NULL,
	`project_code` text NOT NULL,
	`last_read_id` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `chatroom_id`)
);
--> statement-breakpoint
CREATE TABLE `chat_reminders` (
	`id_reminder` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`id_chatroom_message` integer,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`remind_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chat_reminders_member` ON `chat_reminders` (`member_id`,`remind_at`);
--> statement-breakpoint
CREATE TABLE `chat_threads` (
	`id_chat_message_thread` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_chatroom_message` integer NOT NULL,
	`member_id` text NOT NULL,
	`message` text NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`date_add` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chat_threads_message` ON `chat_threads` (`id_chatroom_message`,`id_chat_message_thread`);
