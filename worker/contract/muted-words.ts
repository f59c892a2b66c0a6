import { z } from "zod";
import { MUTED_WORD_MAX_LENGTH } from "./muted-words.constants";
import { SafetyDuration } from "./social";

export { MUTED_WORD_MAX_LENGTH, MUTED_WORDS_MAX, type MutedWord } from "./muted-words.constants";

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
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "control characters are not allowed"),
    duration: SafetyDuration.default("forever"),
  })
  .strict();
export type MutedWordInput = z.infer<typeof MutedWordBody>;
