-- Speed: cost that does not grow with a tenant.
-- 1. Members per tenant, kept by triggers, so counting members reads one row instead of the whole tenant.
CREATE TABLE `project_counters` (
	`project_code` text PRIMARY KEY NOT NULL,
	`members` integer DEFAULT 0 NOT NULL
);
INSERT INTO `project_counters` (`project_code`, `members`) SELECT `project_code`, count(*) FROM `profiles` GROUP BY `project_code`;
CREATE TRIGGER `profiles_count_insert` AFTER INSERT ON `profiles` BEGIN
	INSERT OR IGNORE INTO `project_counters` (`project_code`, `members`) VALUES (NEW.`project_code`, 0);
	UPDATE `project_counters` SET `members` = `members` + 1 WHERE `project_code` = NEW.`project_code`;
END;
CREATE TRIGGER `profiles_count_delete` AFTER DELETE ON `profiles` BEGIN
	UPDATE `project_counters` SET `members` = `members` - 1 WHERE `project_code` = OLD.`project_code`;
END;
-- 2. Nickname search by substring through a trigram index (LIKE '%x%' walked the tenant until it found a page).
--    External content: the index stores only trigrams; rows stay in `profiles`. The tenant is a column so a
--    search never pages through other tenants' matches.
CREATE VIRTUAL TABLE `profiles_search` USING fts5(`project_code`, `nickname`, content='profiles', content_rowid='id_profile', tokenize='trigram');
INSERT INTO `profiles_search` (`rowid`, `project_code`, `nickname`) SELECT `id_profile`, `project_code`, `nickname` FROM `profiles`;
CREATE TRIGGER `profiles_search_insert` AFTER INSERT ON `profiles` BEGIN
	INSERT INTO `profiles_search` (`rowid`, `project_code`, `nickname`) VALUES (NEW.`id_profile`, NEW.`project_code`, NEW.`nickname`);
END;
CREATE TRIGGER `profiles_search_delete` AFTER DELETE ON `profiles` BEGIN
	INSERT INTO `profiles_search` (`profiles_search`, `rowid`, `project_code`, `nickname`) VALUES ('delete', OLD.`id_profile`, OLD.`project_code`, OLD.`nickname`);
END;
CREATE TRIGGER `profiles_search_update` AFTER UPDATE OF `nickname` ON `profiles` BEGIN
	INSERT INTO `profiles_search` (`profiles_search`, `rowid`, `project_code`, `nickname`) VALUES ('delete', OLD.`id_profile`, OLD.`project_code`, OLD.`nickname`);
	INSERT INTO `profiles_search` (`rowid`, `project_code`, `nickname`) VALUES (NEW.`id_profile`, NEW.`project_code`, NEW.`nickname`);
END;
