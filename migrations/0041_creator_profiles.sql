-- §3 Creator profile (README Decisions "DNA pairing and creator profiles"): one row per member who filled it in.
-- `links` is a JSON array of at most 10 { url, title, logo, logoBlur }: every url is http(s) (checked by the API's
-- zod schema before it is written), every logo one of the member's own uploads of kind `logo` (a server-made image
-- under /media, never a remote address) and logoBlur its blurred rendition. The row goes with the account
-- (privacy.service walks every table with a member_id).
CREATE TABLE `creator_profiles` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`introduction` text DEFAULT '' NOT NULL,
	`website_url` text DEFAULT '' NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`links` text DEFAULT '[]' NOT NULL,
	`updated_at` integer NOT NULL
);
