import { z } from "zod";
import { MemberNo, pageSize } from "./common";
import type { ProfileSummary } from "./profile-summary";
export * from "./market.constants";

/**
 * Market, sub-members, hierarchy, bidding, M coins and wallet. Paths (under /api/v6|v7):
 *
 * public
 *   GET  /sns/sub-members/{project}/{memberNo}            a master's sub-members (public profile list)
 * private
 *   GET  /sns/sub-members/{project}/{memberNo}            same, filtered by blocks, plus the viewer's options
 *   POST /sns/sub-members/{project}/join   {masterMemberNo}   the caller joins a master (irreversible by them)
 *   POST /sns/sub-members/{project}/free   {simpleCode}       the master frees a sub-member
 *   POST /sns/game/market/slave            {simpleCode}       the master sells a sub-member to the market
 *   GET  /sns/hierarchy/{project}/{memberNo}               Submember tree {profile, subNodes} and the master chain
 *   GET  /sns/hierarchy/{project}/{memberNo}/history       Hierarchy history {idHierarchyHistory, parentProfile, dateAdd}
 *   GET  /sns/market/{project}/biddings?pageSize           bidding cards of members on the market
 *   GET  /sns/bidding-loops/{idBiddingLoop}                one bid
 *   POST /sns/bidding-loops                {targetMemberNo}   bid on a member on the market
 *   GET  /sns/search/{project}?keyword&pageSize            nickname search; counts the keyword (hot search)
 *   GET  /sns/search/popular-keyword/{project}?pageSize    hot-search keywords
 *   GET  /core/pvs/{memberId}                              coin info {scoin, mcoin}
 *   POST /core/wallet/transfer/{memberId}  {simpleCode, amount, otp, requestId?}   M coin transfer
 *   GET  /core/wallet/transfers/{memberId}?pageSize        the caller's transfers, newest first
 */

export const JoinBody = z.object({ masterMemberNo: MemberNo });
export const SubmemberBody = z.object({ simpleCode: MemberNo });
export const BidBody = z.object({ targetMemberNo: MemberNo });
export const MarketListQuery = z.object({ pageSize: pageSize(20, 100) });
export const SearchQuery = z.object({
  keyword: z.string().trim().min(1).max(40),
  pageSize: pageSize(20, 100),
});
export const KeywordQuery = z.object({ pageSize: pageSize(10, 30) });
export const TransferListQuery = z.object({ pageSize: pageSize(20, 100) });

/**
 * §7 transfer {simpleCode, amount, otp}. `amount` is hundredths (§9 "payment amounts sent times 100");
 * M coins are whole, so it must be a multiple of 100. `requestId` makes a retry idempotent; without it
 * the key is derived from the one-time code, which is single-use anyway.
 */
export const TransferBody = z.object({
  simpleCode: MemberNo,
  amount: z.number().int().positive().max(100_000_000),
  otp: z.string().regex(/^\d{6}$/, "The code has six digits"),
  requestId: z.string().trim().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/).optional(),
});
export type TransferBody = z.infer<typeof TransferBody>;

export type SubmemberProfile = ProfileSummary & { introduction: string };

export type SubmemberItem = {
  profile: SubmemberProfile;
  dateAdd: string;
  /** §3 Profile biddingCount: bids this member has received at the market, ever. */
  biddingCount: number;
};

export type ViewerOptions = {
  /** The viewer is this master. */
  isMaster: boolean;
  /** The viewer already has a master (joining would fail with cannotJoin). */
  owned: boolean;
  /** The viewer may join this master now. */
  canJoin: boolean;
  /** The viewer is one of this master's sub-members. */
  isSubmember: boolean;
};

export type SubmemberList = {
  master: SubmemberProfile;
  subMembers: SubmemberItem[];
  viewer: ViewerOptions | null;
  /** The master hides their connections from this viewer: `subMembers` is empty (README Decisions "Who sees my connections"). */
  connectionsHidden?: true;
};

/** POST /sns/sub-members/{project}/join: answered only when the join took (every refusal is a §8 error). */
export type SubmemberJoined = { joined: true };

/** §3 Submember: profile, subNodes. */
export type SubmemberNode = { profile: ProfileSummary; subNodes: SubmemberNode[] };
export type Hierarchy = SubmemberNode & { masters: ProfileSummary[] };

export type HierarchyEvent = "joined" | "sold" | "freed" | "autoFreed" | "won";
/** §3 Hierarchy history: idHierarchyHistory, parentProfile, dateAdd. */
export type HierarchyHistoryItem = { idHierarchyHistory: number; parentProfile: ProfileSummary | null; event: HierarchyEvent; dateAdd: string };

/** §3 Profile lastBidding (dueDate, profile). */
export type LastBidding = { dueDate: string; profile: ProfileSummary | null };
/** §3 Bidding loop: idBiddingLoop, profile (the bidder). */
export type BiddingLoop = { idBiddingLoop: number; profile: ProfileSummary | null; target: ProfileSummary | null; dueDate: string; dateAdd: string };

/** A bidding card: a member on the market. */
export type BiddingCard = {
  profile: SubmemberProfile;
  biddingCount: number;
  lastBidding: LastBidding;
  /** Most recent distinct bidders, at most §9 BIDDING_STACK_MAX. */
  bidders: ProfileSummary[];
  seller: ProfileSummary | null;
  listedAt: string;
  /**
   * Whether the caller may bid on this card now (a master, not the member themself, not already the last
   * bidder): the page shows the Bid button only then. The server still checks every rule on the bid itself.
   */
  canBid: boolean;
};

/** §3 Popular keyword. */
export type PopularKeyword = { keyword: string; searchCount: number };

/** §3 Coin info. */
export type CoinInfo = { scoin: number; mcoin: number };

export type WalletTransfer = {
  idTransfer: number;
  direction: "out" | "in";
  counterparty: ProfileSummary | null;
  /** Hundredths, as sent (§9). */
  amount: number;
  coins: number;
  dateAdd: string;
};
export type TransferResult = { transfer: WalletTransfer; balance: CoinInfo; replayed: boolean };
