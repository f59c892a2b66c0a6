-- Media from people I don't know stays blurred (README Decisions "Stranger media stays blurred"): the viewer's own
-- setting, on the profile row beside `safe_mode` so every read of "who is looking" (viewerRowQuery, the chat page's
-- SQL, home's own row) gets it in the statement it already makes. 'off' (default), 'notFollowed' (members the viewer
-- does not follow get their blurred rendition), 'everyone' (every other member's). Read and written by its owner only.
ALTER TABLE `profiles` ADD `stranger_media` text DEFAULT 'off' NOT NULL;
