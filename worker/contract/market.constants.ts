/** Zod-free part of ./market.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/** §3 multiGender 1 (male S) and 2 (female S) are masters (§6). */
export const MASTER_GENDERS = [1, 2] as const;
export const isMasterGender = (g: number | null | undefined) => g === 1 || g === 2;

/** §9: bidding avatar stack max 5. */
export const BIDDING_STACK_MAX = 5;
/** §9: multi-gender groups of 20/30/50/100, or full (99999). */
export const GROUP_SIZES = [20, 30, 50, 100, 99999] as const;
/** §9: character users 20 per page. */
export const CHARACTER_PAGE_SIZE = 20;
