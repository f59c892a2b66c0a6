/** Zod-free part of ./ai.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

export const isAsciiPrompt = (prompt: string) => /^[\x20-\x7e\t\r\n]*$/.test(prompt);

/** §9: the page polls every 30 s for about 5 minutes. */
export const AI_POLL_MS = 30_000;
export const AI_POLL_ATTEMPTS = 10;
