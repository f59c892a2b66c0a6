/** §3 Creator profile: up to 10 links (without zod, so pages can import it). */
export const MAX_CREATOR_LINKS = 10;
