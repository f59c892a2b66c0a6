import type { ProfileSummary } from "./profile-summary";

/**
 * Zod-free part of ./collectibles.ts (which re-exports it): pages import this file, so they do not bundle zod.
 * README Decisions "Collectibles and the daily lottery". Paths (under /api/v6|v7/private, session tenant only):
 *
 *   GET    /sns/collectibles/{project}/gas                          what a mint and a purchase cost {mintGas, tradeGas}
 *   GET    /sns/collectibles/{project}/mine                         editions I own, newest first
 *   GET    /sns/collectibles/{project}/listed?pageSize              editions listed for sale (not mine), newest listing first
 *   GET    /sns/collectibles/{project}/history?pageSize             my mints, purchases and sales, newest first
 *   GET    /sns/collectibles/{project}/editions/{idEdition}         one edition with its trades
 *   POST   /sns/collectibles/{project}/mint  {idBanner, editionSize, requestId}      mint from one of my photos
 *   PUT    /sns/collectibles/{project}/editions/{idEdition}/listing {amount}         list (or re-price) my edition
 *   DELETE /sns/collectibles/{project}/editions/{idEdition}/listing                  take it off sale
 *   POST   /sns/collectibles/{project}/editions/{idEdition}/buy  {amount, requestId} buy at the listed price
 *
 *   GET    /sns/lottery/{project}                                   today's draw (commitment, my entry) and past draws
 *   POST   /sns/lottery/{project}/entries  {}                       enter today's draw (free, once a day)
 *   GET    /sns/lottery/{project}/draws/{drawDate}                  one draw with its ordered tickets (to check it)
 *
 * Amounts are hundredths (§9 "payment amounts sent times 100"); M coins are whole, so every amount is a multiple of 100.
 */
export const COLLECTIBLE_PATHS = {
  gas: (p: string) => `/sns/collectibles/${p}/gas`,
  mine: (p: string) => `/sns/collectibles/${p}/mine`,
  listed: (p: string) => `/sns/collectibles/${p}/listed`,
  history: (p: string) => `/sns/collectibles/${p}/history`,
  mint: (p: string) => `/sns/collectibles/${p}/mint`,
  edition: (p: string, idEdition: number) => `/sns/collectibles/${p}/editions/${idEdition}`,
  listing: (p: string, idEdition: number) => `/sns/collectibles/${p}/editions/${idEdition}/listing`,
  buy: (p: string, idEdition: number) => `/sns/collectibles/${p}/editions/${idEdition}/buy`,
  lottery: (p: string) => `/sns/lottery/${p}`,
  lotteryEntries: (p: string) => `/sns/lottery/${p}/entries`,
  lotteryDraw: (p: string, drawDate: string) => `/sns/lottery/${p}/draws/${drawDate}`,
} as const;

/** Gas (server-defined, hundredths): paid by the minter for each mint and by the buyer for each purchase; it is burned. */
export const MINT_GAS_AMOUNT = 100;
export const TRADE_GAS_AMOUNT = 100;
/** A limited edition holds 1 to 100 numbered copies. */
export const EDITION_SIZE_MAX = 100;
/** Highest listing price (hundredths): one million coins. */
export const LISTING_AMOUNT_MAX = 100_000_000;
/**
 * What one member may spend buying collectibles in 24 hours (×100, §9): a purchase moves coins to another account
 * without the wallet transfer's one-time code, so a stolen session could otherwise drain a balance into an edition
 * the thief listed. Larger sums go through the wallet transfer.
 */
export const DAILY_BUY_AMOUNT_MAX = 10_000;

/** The daily prize pool per tenant (hundredths); a tenant not named gets the default. Paid by the house. */
export const LOTTERY_PRIZE_DEFAULT_AMOUNT = 1000;
export const LOTTERY_PRIZE_BY_PROJECT: ReadonlyMap<string, number> = new Map();
export const lotteryPrizeFor = (projectCode: string) => LOTTERY_PRIZE_BY_PROJECT.get(projectCode) ?? LOTTERY_PRIZE_DEFAULT_AMOUNT;

export type Gas = { mintGas: number; tradeGas: number; mintGasCoins: number; tradeGasCoins: number };

export type CollectibleEdition = {
  idEdition: number;
  idCollectible: number;
  serial: number;
  editionSize: number;
  /**
   * The creator's own photo for the creator; for everyone else the photo's blurred public rendition, and '' when the
   * creator's profile is closed to the viewer or the photo is gone (nothing revealing).
   */
  image: string;
  creator: ProfileSummary | null;
  owner: ProfileSummary | null;
  mine: boolean;
  /** Listing price (hundredths), null when not for sale. */
  amount: number | null;
  coins: number | null;
  dateAdd: string;
};

export type CollectibleEvent = {
  kind: "mint" | "bought" | "sold";
  idCollectible: number;
  idEdition: number | null;
  /** Editions minted (mint) or the edition's serial (bought, sold). */
  serial: number | null;
  editionSize: number;
  counterparty: ProfileSummary | null;
  amount: number;
  gas: number;
  dateAdd: string;
};

export type CollectibleTrade = { idTrade: number; amount: number; gas: number; seller: ProfileSummary | null; buyer: ProfileSummary | null; dateAdd: string };
export type CollectibleDetail = CollectibleEdition & { trades: CollectibleTrade[] };
export type MintResult = { idCollectible: number; editionSize: number; gas: number; editions: CollectibleEdition[]; balance: { mcoin: number; scoin: number }; replayed: boolean };
export type BuyResult = { edition: CollectibleEdition; amount: number; gas: number; balance: { mcoin: number; scoin: number }; replayed: boolean };

export type LotteryToday = {
  drawDate: string;
  /** SHA-256 (hex) of the seed, published from the draw's creation; the seed itself only after the draw. */
  commitment: string;
  prize: number;
  prizeCoins: number;
  entryCount: number;
  entered: boolean;
  myTicket: string | null;
  /** Entries close at the end of the UTC day; the draw runs from the scheduled job after that. */
  closesAt: string;
  /** Whether the caller may enter (`lotteryEligibility`): what the page says to do next when they may not. */
  eligibility: LotteryEligibility;
};

/**
 * Who may enter the free daily draw (README Decisions "Collectibles and the daily lottery"). The house pays the prize,
 * so a script with ten fresh accounts must not hold ten tickets: an entrant's account is at least
 * LOTTERY_MIN_ACCOUNT_DAYS old, active and not paused, with an avatar an operator has approved (§5 "qualify").
 */
export const LOTTERY_MIN_ACCOUNT_DAYS = 7;
export type LotteryEligibility = "eligible" | "needsApprovedAvatar" | "accountTooNew" | "notActive";

export type LotteryDraw = {
  drawDate: string;
  commitment: string;
  seed: string | null;
  prize: number;
  prizeCoins: number;
  entryCount: number;
  winnerIndex: number | null;
  winnerTicket: string | null;
  myTicket: string | null;
  youWon: boolean;
  drawnAt: string | null;
};

export type LotteryPage = { today: LotteryToday; past: LotteryDraw[] };
/** Tickets in entry order: anonymous, so checking a draw names nobody. */
export type LotteryDrawDetail = LotteryDraw & { tickets: string[] };

async function sha256HexOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** commitment = hex(SHA-256(UTF-8 of the 64-hex-character seed)). */
export const lotteryCommitment = (seed: string) => sha256HexOf(seed);

/**
 * The draw formula anyone can re-run (README Decisions "Collectibles and the daily lottery"):
 * digest = hex(SHA-256(seed + ":" + drawDate + ":" + tickets joined by ",")), tickets in entry order;
 * winnerIndex = integer value of the first 12 hex digits (48 bits) mod the number of tickets (0-based).
 */
export async function lotteryWinnerIndex(seed: string, drawDate: string, tickets: readonly string[]): Promise<number | null> {
  if (tickets.length === 0) return null;
  const digest = await sha256HexOf(`${seed}:${drawDate}:${tickets.join(",")}`);
  return Number.parseInt(digest.slice(0, 12), 16) % tickets.length;
}
