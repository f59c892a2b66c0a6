import type { ReviewPhoto } from "../../worker/contract/home";
import { api } from "../lib/api";

/** The home page's endpoints (§7: photo review and ratings, feedback), each with its path, method and answer type written once. */

export const reviewQueue = (projectCode: string) => api<ReviewPhoto[]>(`/private/core/banners/review/${projectCode.toUpperCase()}`);
export const ratePhoto = (idBanner: number, rating: number) => api("/private/sns/banner-ratings", { body: { idBanner, rating } });
export const sendFeedback = (projectCode: string, message: string) => api(`/private/cs/feedback/${projectCode.toUpperCase()}`, { body: { message } });
