/** Zod-free part of ./social.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/** §4: the block control shows 10 indicators; 5 blocks run the avatar image check, 10 mark it unqualified. */
export const BLOCK_INDICATORS = 10;
export const BLOCK_IMAGE_CHECK_AT = 5;
export const BLOCK_UNQUALIFY_AT = 10;
/** §4: first tap arms the block control for 3 s. */
export const BLOCK_ARM_MS = 3000;

/** Others' bearing to a member: one of eight compass points, never degrees (README "Cells, not positions"). */
export const COMPASS_POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];
