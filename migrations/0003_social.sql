-- Social graph and member safety: follows, friendships, favourites, reports, guestbook, flame, settings.
CREATE TABLE `favourites` (
	`id_favourite` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL
);

CREATE UNIQUE INDEX `favourites_pair` ON `favourites` (`member_id`,`target_member_id`);
CREATE INDEX `favourites_member` ON `favourites` (`member_id`,`id_favourite`);
CREATE TABLE `flame_passes` (
	`id_flame_pass` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`holder_member_id` text NOT NULL,
	`from_member_id` text,
	`created_at` integer NOT NULL
);

CREATE INDEX `flame_project` ON `flame_passes` (`project_code`,`id_flame_pass`);
CREATE INDEX `flame_from` ON `flame_passes` (`from_member_id`,`created_at`);
CREATE TABLE `follows` (
	`id_follow` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`created_at` integer NOT NULL
);

CREATE UNIQUE INDEX `follows_pair` ON `follows` (`member_id`,`target_member_id`);
CREATE INDEX `follows_member` ON `follows` (`member_id`,`id_follow`);
CREATE INDEX `follows_target` ON `follows` (`target_member_id`,`id_follow`);
CREATE TABLE `friendships` (
	`id_friendship` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`requester_id` text NOT NULL,
	`addressee_id` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);

CREATE UNIQUE INDEX `friendships_pair` ON `friendships` (`requester_id`,`addressee_id`);
CREATE INDEX `friendships_addressee` ON `friendships` (`addressee_id`,`status`);
CREATE INDEX `friendships_requester` ON `friendships` (`requester_id`,`status`);
CREATE TABLE `guestbook_entries` (
	`id_guestbook` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`owner_member_id` text NOT NULL,
	`author_member_id` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer
);

CREATE INDEX `guestbook_owner` ON `guestbook_entries` (`owner_member_id`,`id_guestbook`);
CREATE INDEX `guestbook_owner_unread` ON `guestbook_entries` (`owner_member_id`,`read_at`);
CREATE INDEX `guestbook_pair` ON `guestbook_entries` (`owner_member_id`,`author_member_id`,`id_guestbook`);
CREATE INDEX `guestbook_author` ON `guestbook_entries` (`author_member_id`,`created_at`);
CREATE TABLE `reports` (
	`id_report` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`target_member_id` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);

CREATE UNIQUE INDEX `reports_pair` ON `reports` (`member_id`,`target_member_id`);
CREATE INDEX `reports_target` ON `reports` (`target_member_id`);
CREATE TABLE `social_settings` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`email_alerts` integer DEFAULT false NOT NULL,
	`door_bell_checked_at` integer
);

