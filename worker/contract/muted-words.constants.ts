// Muted words without zod, for pages (tests/unit/client-imports.test.ts): README Decisions "Muted words".

/** Longest phrase, in characters after trimming (a phrase, not a paragraph). */
export const MUTED_WORD_MAX_LENGTH = 50;
/** Live muted words a member may hold at once. */
export const MUTED_WORDS_MAX = 100;

export type MutedWord = { idMutedWord: number; phrase: string; dateAdd: string; expiresAt: string | null };
