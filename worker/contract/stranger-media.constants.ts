/** Zod-free part of ./stranger-media.ts (which re-exports it): the Settings card and the reveal buttons import this. */

/**
 * Whose avatars and photos reach a member only as their blurred rendition (README Decisions "Stranger media stays
 * blurred"): nobody's (`off`), members they do not follow (`notFollowed`), or every other member (`everyone`).
 */
export const STRANGER_MEDIA = ["off", "notFollowed", "everyone"] as const;
export type StrangerMedia = (typeof STRANGER_MEDIA)[number];

/** GET and PUT /core/stranger-media/{memberId}: the owner's one setting. */
export type StrangerMediaSetting = { strangerMedia: StrangerMedia };

/** What a reveal answers: the item's unblurred URL for this viewer, for this session only (never stored). */
export type AvatarReveal = { memberNo: string; avator: string; blur: boolean };
