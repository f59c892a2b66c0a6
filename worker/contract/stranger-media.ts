import { z } from "zod";
import { STRANGER_MEDIA } from "./stranger-media.constants";
export * from "./stranger-media.constants";

/** PUT /core/stranger-media/{memberId}: the owner's one setting. */
export const StrangerMediaBody = z.object({ strangerMedia: z.enum(STRANGER_MEDIA) }).strict();
