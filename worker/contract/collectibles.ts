import { z } from "zod";
import { IdParam, pageSize } from "./common";
import { EDITION_SIZE_MAX, LISTING_AMOUNT_MAX } from "./collectibles.constants";
export * from "./collectibles.constants";

/** A client's retry key: the same id replays the first answer instead of acting twice. */
const RequestId = z.string().trim().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/);
/** Hundredths (§9); the routes refuse a part coin with `wholeCoinsOnly` (400304), as the wallet does. */
const Amount = (max: number) => z.number().int().positive().max(max);

export const MintBody = z.object({ idBanner: IdParam, editionSize: z.number().int().min(1).max(EDITION_SIZE_MAX), requestId: RequestId });
export const ListingBody = z.object({ amount: Amount(LISTING_AMOUNT_MAX) });
/** `amount` is the price the buyer confirmed: a listing re-priced meanwhile is refused, never charged. */
export const BuyBody = z.object({ amount: Amount(LISTING_AMOUNT_MAX), requestId: RequestId });
export const CollectibleListQuery = z.object({ pageSize: pageSize(30, 100) });
export const EditionParams = z.object({ project: z.string(), idEdition: IdParam });
export const DrawDateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "A UTC date YYYY-MM-DD");
