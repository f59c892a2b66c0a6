import { z } from "zod";
import { SafetyDuration } from "./social";

/** Longest phrase, in characters after trimming (a phrase, not a paragraph). */
export const MUTED_WORD_MAX_LENGTH = 50;
/** Live muted words a member may hold at once (README Decisions "Muted words"). */
export const MUTED_WORDS_MAX = 100;

/**
 * A phrase to mute: trimmed, 1 to MUTED_WORD_MAX_LENGTH characters, no control characters; for a chosen time or
 * forever (the same durations as blocks and mutes).
 */
export const MutedWordBody = z
  .object({
    phrase: z
      .string()
      .trim()
      .min(1)
      .max(MUTED_WORD_MAX_LENGTH)
      // eslint-disable-next-line no-control-regex
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "control characters are not allowed"),
    duration: SafetyDuration.default("forever"),
  })
  .strict();
export type MutedWordInput = z.infer<typeof MutedWordBody>;

export type MutedWord = { idMutedWord: number; phrase: string; dateAdd: string; expiresAt: string | null };
