-- Hot searches (README Decisions "Hot searches need several members"): a keyword is shown publicly only once
-- HOT_SEARCH_MIN_MEMBERS distinct members searched it on one UTC day; `listed_at` records when that happened.
-- Existing keywords start unlisted: their counts may come from a single member searching on several days.
ALTER TABLE `search_keywords` ADD `listed_at` integer;
