import type { AiImage } from "../../worker/contract/ai";
import { api } from "../lib/api";

/** The AI room's endpoint (§7 partner ai), with its path and answer type written once. */

export const generateImage = (prompt: string) => api<AiImage>("/public/partner/ai/image/actor/test_male", { body: { prompt } });
