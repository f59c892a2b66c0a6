import type { AvatarReveal } from "../../worker/contract/stranger-media.constants";
import { api } from "../lib/api";

/** The stranger-media reveal (README Decisions "Stranger media"), with its path and answer type written once. */

export const revealAvatar = (simpleCode: string) => api<AvatarReveal>(`/private/core/stranger-media/reveal/${encodeURIComponent(simpleCode)}`, { method: "POST" });
