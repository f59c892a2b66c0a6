-- Issue 9: a version per chat room, bumped by triggers on every change to what a room's page shows (a message
-- posted, edited, deleted or its thread count changed; a reaction added, changed or removed). Each isolate keeps
-- the newest page of busy rooms (worker/features/chat/chat-page-kept.ts) and reads only this row to know that the
-- page it holds is still the room's page.
CREATE TABLE `chat_room_versions` (
	`project_code` text NOT NULL,
	`chatroom_id` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_code`, `chatroom_id`)
) WITHOUT ROWID;
INSERT INTO `chat_room_versions` (`project_code`, `chatroom_id`, `version`) SELECT DISTINCT `project_code`, `chatroom_id`, 1 FROM `chat_messages`;
CREATE TRIGGER `chat_messages_version_insert` AFTER INSERT ON `chat_messages` BEGIN
	INSERT INTO `chat_room_versions` (`project_code`, `chatroom_id`, `version`) VALUES (NEW.`project_code`, NEW.`chatroom_id`, 1)
		ON CONFLICT (`project_code`, `chatroom_id`) DO UPDATE SET `version` = `version` + 1;
END;
CREATE TRIGGER `chat_messages_version_update` AFTER UPDATE ON `chat_messages` BEGIN
	UPDATE `chat_room_versions` SET `version` = `version` + 1
		WHERE (`project_code` = NEW.`project_code` AND `chatroom_id` = NEW.`chatroom_id`) OR (`project_code` = OLD.`project_code` AND `chatroom_id` = OLD.`chatroom_id`);
END;
CREATE TRIGGER `chat_messages_version_delete` AFTER DELETE ON `chat_messages` BEGIN
	UPDATE `chat_room_versions` SET `version` = `version` + 1 WHERE `project_code` = OLD.`project_code` AND `chatroom_id` = OLD.`chatroom_id`;
END;
CREATE TRIGGER `chat_reactions_version_insert` AFTER INSERT ON `chat_reactions` BEGIN
	UPDATE `chat_room_versions` SET `version` = `version` + 1
		WHERE (`project_code`, `chatroom_id`) = (SELECT `project_code`, `chatroom_id` FROM `chat_messages` WHERE `id_chatroom_message` = NEW.`id_chatroom_message`);
END;
CREATE TRIGGER `chat_reactions_version_update` AFTER UPDATE ON `chat_reactions` BEGIN
	UPDATE `chat_room_versions` SET `version` = `version` + 1
		WHERE (`project_code`, `chatroom_id`) IN (SELECT `project_code`, `chatroom_id` FROM `chat_messages` WHERE `id_chatroom_message` IN (NEW.`id_chatroom_message`, OLD.`id_chatroom_message`));
END;
CREATE TRIGGER `chat_reactions_version_delete` AFTER DELETE ON `chat_reactions` BEGIN
	UPDATE `chat_room_versions` SET `version` = `version` + 1
		WHERE (`project_code`, `chatroom_id`) = (SELECT `project_code`, `chatroom_id` FROM `chat_messages` WHERE `id_chatroom_message` = OLD.`id_chatroom_message`);
END;
