import type { Envelope } from "../../worker/contract/envelope";
import type { BannerRevealed } from "../../worker/contract/profiles";
import { api } from "./api";

/** §9: after the 10th tap on a blurred photo, a member asks the server for its original (visitors never can). */
export function revealPhoto(idBanner: number): Promise<Envelope<BannerRevealed>> {
  return api<BannerRevealed>(`/private/core/banners/${idBanner}/reveal`, { method: "POST" });
}
