-- Speed: versions that tell an isolate the newest page it keeps of a shared chat room (public, home, personal;
-- worker/features/chat/chat-page-kept.ts) is still the room's page. Each call reads two rows instead of the page.
--
-- chat_room_versions: one row per shared room, bumped on every change to what its page shows: a message posted,
-- edited, deleted or its thread count changed; a reaction added, changed or removed. One-to-one rooms (dm-…) are
-- always read with every rule in SQL, so their messages bump nothing.
-- chat_card_versions: one row per project, bumped when a member card as pages show it changes (nickname, avatar,
-- flags, account closed or deleted), for every room of the project: a personal room per member makes a per-room
-- bump too many writes. Last access is left out; it changes on every visit and kept cards show it at most
-- CHAT_PAGE_TTL_SECONDS old.
--
-- A version is the time of the change in milliseconds, or one more than the last when changes share a millisecond:
-- it only grows, also across a restore of the database to an earlier point, so a kept version is never met again.
-- That rule lives once per table, in the INSTEAD OF trigger of a view (`chat_room_bumps`, `chat_card_bumps`); the
-- triggers on messages, reactions and profiles insert the rooms or projects to bump into the view.
CREATE TABLE `chat_room_versions` (
	`project_code` text NOT NULL,
	`chatroom_id` text NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`project_code`, `chatroom_id`)
) WITHOUT ROWID;
CREATE TABLE `chat_card_versions` (
	`project_code` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
) WITHOUT ROWID;
CREATE VIEW `chat_room_bumps` AS SELECT `project_code`, `chatroom_id` FROM `chat_room_versions`;
CREATE TRIGGER `chat_room_bumps_insert` INSTEAD OF INSERT ON `chat_room_bumps` WHEN NEW.`chatroom_id` NOT LIKE 'dm-%' BEGIN
	INSERT INTO `chat_room_versions` (`project_code`, `chatroom_id`, `version`)
		VALUES (NEW.`project_code`, NEW.`chatroom_id`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
		ON CONFLICT (`project_code`, `chatroom_id`) DO UPDATE SET `version` = max(`version` + 1, excluded.`version`);
END;
CREATE VIEW `chat_card_bumps` AS SELECT `project_code` FROM `chat_card_versions`;
CREATE TRIGGER `chat_card_bumps_insert` INSTEAD OF INSERT ON `chat_card_bumps` BEGIN
	INSERT INTO `chat_card_versions` (`project_code`, `version`)
		VALUES (NEW.`project_code`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
		ON CONFLICT (`project_code`) DO UPDATE SET `version` = max(`version` + 1, excluded.`version`);
END;
INSERT INTO `chat_room_bumps` (`project_code`, `chatroom_id`) SELECT DISTINCT `project_code`, `chatroom_id` FROM `chat_messages`;
INSERT INTO `chat_card_bumps` (`project_code`) SELECT DISTINCT `project_code` FROM `profiles`;
CREATE TRIGGER `chat_messages_version_insert` AFTER INSERT ON `chat_messages` BEGIN
	INSERT INTO `chat_room_bumps` VALUES (NEW.`project_code`, NEW.`chatroom_id`);
END;
CREATE TRIGGER `chat_messages_version_update` AFTER UPDATE ON `chat_messages` BEGIN
	INSERT INTO `chat_room_bumps` SELECT NEW.`project_code`, NEW.`chatroom_id` UNION SELECT OLD.`project_code`, OLD.`chatroom_id`;
END;
CREATE TRIGGER `chat_messages_version_delete` AFTER DELETE ON `chat_messages` BEGIN
	INSERT INTO `chat_room_bumps` VALUES (OLD.`project_code`, OLD.`chatroom_id`);
END;
CREATE TRIGGER `chat_reactions_version_insert` AFTER INSERT ON `chat_reactions` BEGIN
	INSERT INTO `chat_room_bumps` SELECT `project_code`, `chatroom_id` FROM `chat_messages` WHERE `id_chatroom_message` = NEW.`id_chatroom_message`;
END;
CREATE TRIGGER `chat_reactions_version_update` AFTER UPDATE ON `chat_reactions` BEGIN
	INSERT INTO `chat_room_bumps` SELECT DISTINCT `project_code`, `chatroom_id` FROM `chat_messages`
		WHERE `id_chatroom_message` IN (NEW.`id_chatroom_message`, OLD.`id_chatroom_message`);
END;
CREATE TRIGGER `chat_reactions_version_delete` AFTER DELETE ON `chat_reactions` BEGIN
	INSERT INTO `chat_room_bumps` SELECT `project_code`, `chatroom_id` FROM `chat_messages` WHERE `id_chatroom_message` = OLD.`id_chatroom_message`;
END;
-- The card's columns (worker/features/profiles/profile-summary.ts summaryColumnsOf) but last access.
CREATE TRIGGER `profiles_chat_card_version_update` AFTER UPDATE ON `profiles` WHEN
	OLD.`member_id` IS NOT NEW.`member_id` OR OLD.`project_code` IS NOT NEW.`project_code` OR OLD.`id_profile` IS NOT NEW.`id_profile`
	OR OLD.`simple_code` IS NOT NEW.`simple_code` OR OLD.`nickname` IS NOT NEW.`nickname` OR OLD.`avator` IS NOT NEW.`avator`
	OR OLD.`qualify` IS NOT NEW.`qualify` OR OLD.`blur` IS NOT NEW.`blur` OR OLD.`blocked` IS NOT NEW.`blocked`
	OR OLD.`multi_gender` IS NOT NEW.`multi_gender` OR OLD.`look_for` IS NOT NEW.`look_for` OR OLD.`kyc_status` IS NOT NEW.`kyc_status`
	OR OLD.`closed` IS NOT NEW.`closed` OR OLD.`is_rainbow` IS NOT NEW.`is_rainbow`
BEGIN
	INSERT INTO `chat_card_bumps` SELECT NEW.`project_code` UNION SELECT OLD.`project_code`;
END;
CREATE TRIGGER `profiles_chat_card_version_insert` AFTER INSERT ON `profiles` BEGIN
	INSERT INTO `chat_card_bumps` VALUES (NEW.`project_code`);
END;
CREATE TRIGGER `profiles_chat_card_version_delete` AFTER DELETE ON `profiles` BEGIN
	INSERT INTO `chat_card_bumps` VALUES (OLD.`project_code`);
END;
