import { z } from "zod";
import { MAX_CREATOR_LINKS } from "./creator.constants";

/**
 * §3 Creator profile: introduction, websiteUrl, company, title, location, up to 10 links each with url, logo, title
 * (README Decisions "DNA pairing and creator profiles"). The page edits it on My profile and shows it on the public
 * profile; the API validates it here and nowhere else.
 */
export { MAX_CREATOR_LINKS };

/**
 * A link a browser may open: http or https only, so `javascript:`, `data:`, `vbscript:`, `file:` and other schemes
 * are refused (400) before anything is stored. Rendered with rel="noopener noreferrer nofollow ugc".
 */
export const HttpUrl = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, message: "Links must start with http:// or https://" }));

export const CreatorLinkInput = z.strictObject({
  url: HttpUrl,
  title: z.string().trim().max(80).default(""),
  /** "" or the /media url of one of the caller's own uploads of type `logo` (POST /core/files, type=logo). */
  logo: z.string().trim().max(300).default(""),
});

/** PUT /core/creator-profiles/{memberId}: the whole creator profile (replaces what was there). */
export const CreatorProfileBody = z.strictObject({
  introduction: z.string().max(2000).default(""),
  websiteUrl: z.union([z.literal(""), HttpUrl]).default(""),
  company: z.string().trim().max(100).default(""),
  title: z.string().trim().max(100).default(""),
  location: z.string().trim().max(100).default(""),
  links: z.array(CreatorLinkInput).max(MAX_CREATOR_LINKS, `At most ${MAX_CREATOR_LINKS} links`).default([]),
});
export type CreatorProfileBody = z.infer<typeof CreatorProfileBody>;

/** A link as stored: the logo's own url and its blurred rendition (what visitors and safe-mode viewers get). */
export type StoredCreatorLink = { url: string; title: string; logo: string; logoBlur: string; logoGraphic: boolean };

/** A link as a viewer gets it: `logo` is the original or the blurred rendition (`logoBlur` says which), never remote. */
export type CreatorLink = { url: string; title: string; logo: string; logoBlur: boolean };

/** GET /core/creator-profiles/{project}/{simpleCode}: null when the member has none or it is not for this viewer. */
export type CreatorProfile = {
  simpleCode: string;
  introduction: string;
  websiteUrl: string;
  company: string;
  title: string;
  location: string;
  links: CreatorLink[];
  dateUdp: string | null;
};
