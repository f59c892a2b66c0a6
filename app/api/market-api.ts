import type { BiddingCard, BiddingLoop, CoinInfo, PopularKeyword, SubmemberJoined, SubmemberList, SubmemberProfile, TransferResult } from "../../worker/contract/market";
import type { NearbyAnswer } from "../../worker/contract/social";
import { api } from "../lib/api";
import { readSession } from "../lib/session-keys";

/** The market endpoints (§7 sns market, sub-members, search; core geolocation, wallet), each with its path, method and answer type written once. */

const tenant = (projectCode: string) => projectCode.toUpperCase();

/** A master's sub-members (a visitor reads the public path). */
export const submembers = (projectCode: string, memberNo: string) =>
  api<SubmemberList>(`/${readSession() ? "private" : "public"}/sns/sub-members/${tenant(projectCode)}/${encodeURIComponent(memberNo)}`);
export const joinMaster = (projectCode: string, masterMemberNo: string) => api<SubmemberJoined>(`/private/sns/sub-members/${tenant(projectCode)}/join`, { body: { masterMemberNo } });
export const freeSubmember = (projectCode: string, simpleCode: string) => api(`/private/sns/sub-members/${tenant(projectCode)}/free`, { body: { simpleCode } });
export const sellSubmember = (simpleCode: string) => api("/private/sns/game/market/slave", { body: { simpleCode } });

export const search = (projectCode: string, keyword: string) =>
  api<SubmemberProfile[]>(`/private/sns/search/${tenant(projectCode)}?keyword=${encodeURIComponent(keyword)}&pageSize=30`);
export const popularKeywords = (projectCode: string) => api<PopularKeyword[]>(`/private/sns/search/popular-keyword/${tenant(projectCode)}?pageSize=10`);

export const sharePosition = (memberId: string, latitude: number, longitude: number) =>
  api(`/private/core/geolocation/${memberId}`, { method: "PUT", body: { latitude, longitude } });
export const nearby = (projectCode: string) => api<NearbyAnswer>(`/private/core/geolocation/${tenant(projectCode)}/nearby?pageSize=30`);

export const bid = (targetMemberNo: string) => api<BiddingLoop>("/private/sns/bidding-loops", { body: { targetMemberNo } });
export const biddings = (projectCode: string) => api<BiddingCard[]>(`/private/sns/market/${tenant(projectCode)}/biddings?pageSize=20`);

/** The member's coins (§7 core pvs). */
export const coins = (memberId: string) => api<CoinInfo>(`/private/core/pvs/${memberId}`);

/** A one-time code by e-mail, then an M coin transfer (`amount` in hundredths, §9). */
export const sendOtp = (memberId: string) => api(`/private/core/otp/${memberId}`, { body: {} });
export const transfer = (memberId: string, body: { simpleCode: string; amount: number; otp: string; requestId?: string }) =>
  api<TransferResult>(`/private/core/wallet/transfer/${memberId}`, { body });
