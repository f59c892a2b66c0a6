import {
  COLLECTIBLE_PATHS as P,
  type BuyResult,
  type CollectibleEdition,
  type LotteryDrawDetail,
  type LotteryToday,
  type MintResult,
} from "../../worker/contract/collectibles.constants";
import { api } from "../lib/api";

/** The collectibles and lottery endpoints (§7 sns collectibles, lottery), each with its path, method and answer type written once. */

export const mint = (projectCode: string, body: { idBanner: number; editionSize: number; requestId: string }) => api<MintResult>(`/private${P.mint(projectCode)}`, { body });
/** List an edition for `amount` (hundredths), or take it off the market. */
export const listEdition = (projectCode: string, idEdition: number, amount: number) =>
  api<CollectibleEdition>(`/private${P.listing(projectCode, idEdition)}`, { method: "PUT", body: { amount } });
export const unlistEdition = (projectCode: string, idEdition: number) =>
  api<CollectibleEdition>(`/private${P.listing(projectCode, idEdition)}`, { method: "DELETE" });
export const buyEdition = (projectCode: string, idEdition: number, amount: number, requestId: string) =>
  api<BuyResult>(`/private${P.buy(projectCode, idEdition)}`, { body: { amount, requestId } });

export const enterLottery = (projectCode: string) => api<LotteryToday>(`/private${P.lotteryEntries(projectCode)}`, { body: {} });
export const lotteryDraw = (projectCode: string, drawDate: string) => api<LotteryDrawDetail>(`/private${P.lotteryDraw(projectCode, drawDate)}`);
