-- Home dashboard and engagement: the feedback box and AI room images.
CREATE TABLE `feedback` (
	`id_feedback` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `feedback_project_created` ON `feedback` (`project_code`,`created_at`);
CREATE TABLE `ai_images` (
	`id_image` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`prompt` text NOT NULL,
	`file` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`media_key` text,
	`blur` integer DEFAULT false NOT NULL,
	`provider` text NOT NULL,
	`created_at` integer NOT NULL,
	`ready_at` integer
);
CREATE UNIQUE INDEX `ai_images_file` ON `ai_images` (`file`);
CREATE INDEX `ai_images_member` ON `ai_images` (`member_id`,`id_image`);
