import type { Envelope } from "../../worker/contract/envelope";
import { api } from "./api";

/** §9: after the 10th tap on a blurred photo, a member asks the server for its original (visitors never can). */
export function revealPhoto(idBanner: number): Promise<Envelope<{ idBanner: number; image: string }>> {
  return api<{ idBanner: number; image: string }>(`/private/core/banners/${idBanner}/reveal`, { method: "POST" });
}
