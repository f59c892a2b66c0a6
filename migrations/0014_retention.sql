-- Deletion and retention (README Decisions "Deleting an account" and "What is kept, and for how long").
--
-- 1. The daily purge (worker/features/privacy/retention.ts) reads the rows whose lifetime is over through these.
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);
CREATE INDEX `sessions_ended` ON `sessions` (`ended_at`);
CREATE INDEX `password_resets_expires` ON `password_resets` (`expires_at`);
CREATE INDEX `otp_codes_expires` ON `otp_codes` (`expires_at`);
CREATE INDEX `mail_outbox_created` ON `mail_outbox` (`created_at`);
-- Account deletion removes the mail sent to the address.
CREATE INDEX `mail_outbox_to` ON `mail_outbox` (`project_code`, `to_email`);
CREATE INDEX `chat_reminders_remind` ON `chat_reminders` (`remind_at`);
CREATE INDEX `keyword_searches_day` ON `keyword_searches` (`day`);

-- 2. Accounts deleted before this migration get what deletion does now (worker/features/privacy/privacy.service.ts
--    `erasures` and the profile wipe), so no old number still shows a role, sign or counts.
--    'private message' is PRIVATE_PLACEHOLDER (worker/contract/chat.ts), what others already see of a private message.
UPDATE `chat_messages` SET `message` = 'private message', `payload` = '{}'
	WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted') AND (`is_private` = 1 OR `to_member_id` IS NOT NULL);
UPDATE `chat_messages` SET `deleted` = 1, `message` = '', `payload` = '{}'
	WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted') AND `is_private` = 0 AND `to_member_id` IS NULL
		AND json_valid(`payload`) AND json_extract(`payload`, '$.type') IN ('img', 'encodedImage');
UPDATE `chat_threads` SET `message` = 'private message'
	WHERE `is_private` = 1 AND `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
UPDATE `reports` SET `reason` = '' WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
UPDATE `missions` SET `description` = '', `remark` = '', `cover` = '' WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
UPDATE `missions` SET `review_remark` = '' WHERE `reviewer_member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
DELETE FROM `feedback` WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
DELETE FROM `guestbook_entries` WHERE `owner_member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted')
	OR `author_member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted');
-- The profile gives up its number for a random `deleted-…` code (lib/ids.ts newDeletedCode): lookups by number miss it.
UPDATE `profiles` SET `simple_code` = 'deleted-' || lower(hex(randomblob(6))), `nickname` = 'deleted member', `introduction` = '',
	`avator` = '', `qualify` = 0, `blur` = 0, `blocked` = 0, `unqualified_count` = 0, `multi_gender` = NULL, `gender_locked` = 0,
	`look_for` = 0, `muted` = 0, `kyc_status` = 0, `birthday` = NULL, `zodiac_sign` = NULL, `closed` = 1, `is_rainbow` = 0,
	`safeword` = '', `phone` = '', `mobile` = '', `default_address` = '', `skype_id` = '', `wechat_id` = '', `telegram_id` = '',
	`twitter_id` = '', `instagram_id` = '', `dcard_id` = '', `website_url` = '', `email_hash` = '', `language` = NULL,
	`public_key` = NULL, `geohash` = NULL, `latitude` = NULL, `longitude` = NULL, `bidding_count` = 0, `page_views` = 0,
	`last_access` = NULL, `last_chat_at` = NULL, `created_at` = 0, `updated_at` = 0
	WHERE `member_id` IN (SELECT `id` FROM `members` WHERE `status` = 'deleted') AND `simple_code` NOT LIKE 'deleted-%';
UPDATE `members` SET `referral_code` = 'deleted-' || lower(hex(randomblob(6))), `referral_count` = 0, `last_login_at` = NULL
	WHERE `status` = 'deleted' AND `referral_code` NOT LIKE 'deleted-%';
-- A tenant's member count leaves deleted accounts out (deletion now decrements it).
UPDATE `project_counters` SET `members` = (
	SELECT count(*) FROM `profiles` `p` JOIN `members` `m` ON `m`.`id` = `p`.`member_id`
	WHERE `p`.`project_code` = `project_counters`.`project_code` AND `m`.`status` <> 'deleted');
