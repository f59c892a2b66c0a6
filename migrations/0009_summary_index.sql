-- Speed: a profile summary (the card every list shows) read from one covering-index row per member, not an
-- index row plus a table row. Chat pages look up to 100 authors at a time through it.
CREATE INDEX `profiles_member_summary` ON `profiles` (`member_id`, `project_code`, `simple_code`, `nickname`, `avator`, `qualify`, `blur`, `blocked`, `multi_gender`, `look_for`, `kyc_status`, `closed`, `is_rainbow`, `last_access`);
