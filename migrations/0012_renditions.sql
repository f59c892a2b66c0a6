-- Blurred renditions (README Decisions "Visitors get a blurred rendition, never the original"). Every avatar and
-- photo upload stores a small, strongly blurred JPEG beside the original, under a key of its own random id (its URL
-- says nothing of the original's). Visitors, safe-mode viewers and viewers of a `blur` member get only that URL.
--
-- media_uploads.rendition_key: the rendition's R2 key (NULL for uploads made before renditions existed).
-- profiles.avator_blur: the rendition URL of the current `avator` ('' when there is none: such viewers get no avatar).
-- profiles.safe_mode: the member's safe-mode switch (§4 My profile), known to the server so it sends renditions.
-- banners.blur_image: the rendition URL of the photo ('' when there is none).
ALTER TABLE `media_uploads` ADD `rendition_key` text;
ALTER TABLE `profiles` ADD `avator_blur` text DEFAULT '' NOT NULL;
ALTER TABLE `profiles` ADD `safe_mode` integer DEFAULT false NOT NULL;
ALTER TABLE `banners` ADD `blur_image` text DEFAULT '' NOT NULL;
-- The card (profile-summary.ts summaryColumnsOf) now carries the rendition: the covering index carries it too.
DROP INDEX `profiles_member_summary`;
CREATE INDEX `profiles_member_summary` ON `profiles` (`member_id`, `project_code`, `simple_code`, `nickname`, `avator`, `avator_blur`, `qualify`, `blur`, `blocked`, `multi_gender`, `look_for`, `kyc_status`, `closed`, `is_rainbow`, `last_access`);
-- The card version (migration 0010) follows the card's columns, the rendition among them.
DROP TRIGGER `profiles_chat_card_version_update`;
CREATE TRIGGER `profiles_chat_card_version_update` AFTER UPDATE ON `profiles` WHEN
	OLD.`member_id` IS NOT NEW.`member_id` OR OLD.`project_code` IS NOT NEW.`project_code` OR OLD.`id_profile` IS NOT NEW.`id_profile`
	OR OLD.`simple_code` IS NOT NEW.`simple_code` OR OLD.`nickname` IS NOT NEW.`nickname` OR OLD.`avator` IS NOT NEW.`avator`
	OR OLD.`avator_blur` IS NOT NEW.`avator_blur`
	OR OLD.`qualify` IS NOT NEW.`qualify` OR OLD.`blur` IS NOT NEW.`blur` OR OLD.`blocked` IS NOT NEW.`blocked`
	OR OLD.`multi_gender` IS NOT NEW.`multi_gender` OR OLD.`look_for` IS NOT NEW.`look_for` OR OLD.`kyc_status` IS NOT NEW.`kyc_status`
	OR OLD.`closed` IS NOT NEW.`closed` OR OLD.`is_rainbow` IS NOT NEW.`is_rainbow`
BEGIN
	INSERT INTO `chat_card_bumps` SELECT NEW.`project_code` UNION SELECT OLD.`project_code`;
END;
