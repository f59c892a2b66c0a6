import { z } from "zod";
import { numeric } from "./common";
export * from "./ai.constants";

/** §5: the AI room accepts ASCII only; the route answers 400401 for anything else. */
export const AiPromptBody = z.object({ prompt: z.string().trim().min(1, "Prompt must not be empty").max(500) });
export type AiPromptBody = z.infer<typeof AiPromptBody>;

export const AiImagesQuery = z.object({ pageSize: numeric().pipe(z.number().int().min(1).max(100)).default(30) });

/** §3 AI image. `imageUrl` is `/output/{file}`: 404 until ready, then the image. */
export type AiImage = { idImage: number; imageUrl: string; prompt: string; blur: boolean; status: "pending" | "ready" | "failed"; dateAdd: string };

/** Per-member limit: images started within the window. */
export const AI_RATE = { limit: 5, windowMs: 10 * 60_000 } as const;
