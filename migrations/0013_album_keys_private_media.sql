-- Keyed albums and private media (README Decisions "Keyed albums", "Private media").
--
-- album_key_attempts: one row per keyed album counting wrong secret keys in the current hour, across every member
-- and visitor. An attempt is reserved by one conditional upsert before the key is checked, so parallel guesses
-- cannot pass the budget; a right key gives its reservation back.
--
-- chat_media: images uploaded for private messages (R2 kind `dm`, never served by /media). Bound to the one private
-- message that carries them; /private-media serves them to its sender and recipient only.
CREATE TABLE `album_key_attempts` (
	`id_album` integer PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`window_start` integer NOT NULL,
	`attempts` integer NOT NULL
);
CREATE TABLE `chat_media` (
	`media_key` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`id_chatroom_message` integer,
	`created_at` integer NOT NULL
);
CREATE INDEX `chat_media_member` ON `chat_media` (`member_id`);
CREATE INDEX `chat_media_message` ON `chat_media` (`id_chatroom_message`);
-- Existing keyed albums start with an empty budget row (new ones get theirs when they are created).
INSERT INTO `album_key_attempts` (`id_album`, `project_code`, `window_start`, `attempts`)
	SELECT `id_album`, `project_code`, 0, 0 FROM `albums` WHERE `key_hash` IS NOT NULL;
