-- Tasks and missions (§3, §4 status P → F → C); albums with hashed secret keys, photos, uploads and per-viewer grants.
CREATE TABLE `album_grants` (
	`id_album` integer NOT NULL,
	`member_id` text NOT NULL,
	`project_code` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`id_album`, `member_id`)
);

CREATE INDEX `album_grants_member` ON `album_grants` (`member_id`);
CREATE TABLE `album_photos` (
	`id_photo` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id_album` integer NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`file_path` text NOT NULL,
	`media_key` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);

CREATE INDEX `album_photos_album` ON `album_photos` (`id_album`,`id_photo`);
CREATE INDEX `album_photos_media` ON `album_photos` (`media_key`);
CREATE TABLE `album_uploads` (
	`media_key` text PRIMARY KEY NOT NULL,
	`id_album` integer NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`scrambled` integer NOT NULL,
	`created_at` integer NOT NULL
);

CREATE INDEX `album_uploads_album` ON `album_uploads` (`id_album`);
CREATE TABLE `albums` (
	`id_album` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`title` text NOT NULL,
	`key_hash` text,
	`seed_sealed` text,
	`created_at` integer NOT NULL
);

CREATE INDEX `albums_member` ON `albums` (`member_id`,`id_album`);
CREATE TABLE `missions` (
	`id_mission` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`id_task` integer NOT NULL,
	`member_id` text NOT NULL,
	`reviewer_member_id` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`review_remark` text DEFAULT '' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'P' NOT NULL CHECK (`status` IN ('P', 'F', 'C')),
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);

CREATE UNIQUE INDEX `missions_task_member` ON `missions` (`id_task`,`member_id`);
CREATE INDEX `missions_member` ON `missions` (`member_id`,`id_mission`);
CREATE INDEX `missions_reviewer` ON `missions` (`reviewer_member_id`,`id_mission`);
CREATE TABLE `tasks` (
	`id_task` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`subject` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL
);

CREATE INDEX `tasks_project` ON `tasks` (`project_code`,`id_task`);
CREATE INDEX `tasks_member` ON `tasks` (`member_id`,`id_task`);
