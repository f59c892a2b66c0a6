import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { DAY, iso } from "../../lib/time";
import {
  DAILY_BUY_AMOUNT_MAX,
  MINT_GAS_AMOUNT,
  TRADE_GAS_AMOUNT,
  type BuyResult,
  type CollectibleDetail,
  type CollectibleEdition,
  type CollectibleEvent,
  type Gas,
  type MintResult,
} from "../../contract/collectibles.constants";
import type { ProfileSummary } from "../../contract/profile-summary";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { openToViewerSql } from "../members/profile-access";
import { notBlockedWith } from "../members/visibility";
import { d1Batch } from "../../db/d1-batch";
import { coinInfo } from "../coins/coins.service";

/**
 * README Decisions "Collectibles and the daily lottery". Coins move only as `coin_ledger` rows selected from the mint
 * or trade row stored in the SAME batch, and that row is inserted only when the payer's ledger balance covers price and
 * gas (checked inside the batch's transaction, as the wallet transfer does): no double spend, no negative balance.
 */
type Caller = { memberId: string; projectCode: string };

export const gas = (): Gas => ({ mintGas: MINT_GAS_AMOUNT, tradeGas: TRADE_GAS_AMOUNT, mintGasCoins: MINT_GAS_AMOUNT / 100, tradeGasCoins: TRADE_GAS_AMOUNT / 100 });

const balanceSql = (memberId: string) => sql`(select coalesce(sum(amount), 0) from coin_ledger where member_id = ${memberId} and currency = 'mcoin')`;
const column = (name: string) => sql.raw(name) as unknown as SQLiteColumn;

type EditionRow = {
  idEdition: number;
  idCollectible: number;
  serial: number;
  ownerId: string;
  price: number | null;
  listingSeq: number;
  createdAt: number;
  listedAt: number | null;
  editionSize: number;
  creatorId: string;
  image: string | null;
  blurImage: string | null;
  creatorVisible: number;
  creatorOpen: number;
};

/** Editions as `viewerId` may see them; `where` filters further (the tenant is always one of its conditions). */
function editionsSql(viewerId: string, where: SQL, tail: SQL = sql``, at = Date.now()): SQL {
  return sql`select e.id_edition as idEdition, e.id_collectible as idCollectible, e.serial as serial, e.owner_member_id as ownerId,
      e.price as price, e.listing_seq as listingSeq, e.created_at as createdAt, e.listed_at as listedAt, c.edition_size as editionSize,
      c.creator_member_id as creatorId, b.image as image, b.blur_image as blurImage,
      (${notBlockedWith(viewerId, sql`c.creator_member_id`, at)}) as creatorVisible,
      coalesce(${openToViewerSql(viewerId, column("cp.member_id"), column("cp.closed"))}, 0) as creatorOpen
    from collectible_editions e
    join collectibles c on c.id_collectible = e.id_collectible
    left join banners b on b.id_banner = c.id_banner
    left join profiles cp on cp.member_id = c.creator_member_id
    where ${where} ${tail}`;
}

/**
 * The picture: the creator sees their own photo; anyone else the photo's blurred public rendition (the server-made one
 * visitors get), and nothing ('') when the creator is blocked either way, the creator's profile is closed to them, or
 * the photo was deleted — a collectible never shows more of a photo than its page would.
 */
function imageFor(row: EditionRow, viewerId: string): string {
  if (row.creatorId === viewerId) return row.image ?? "";
  if (!row.creatorVisible || !row.creatorOpen) return "";
  return row.blurImage ?? "";
}

async function toEditions(env: Env, caller: Caller, rows: EditionRow[]): Promise<CollectibleEdition[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.ownerId, r.creatorId]))];
  const people = await profileSummaries(env, caller.projectCode, ids, await viewerFor(env, caller.memberId));
  return rows.map((r) => ({
    idEdition: r.idEdition,
    idCollectible: r.idCollectible,
    serial: r.serial,
    editionSize: r.editionSize,
    image: imageFor(r, caller.memberId),
    creator: r.creatorVisible ? (people.get(r.creatorId) ?? null) : null,
    // Who holds a copy is theirs to tell: named only while they offer it for sale, and to themselves.
    owner: r.price !== null || r.ownerId === caller.memberId ? (people.get(r.ownerId) ?? null) : null,
    mine: r.ownerId === caller.memberId,
    amount: r.price,
    coins: r.price === null ? null : r.price / 100,
    dateAdd: iso(r.listedAt ?? r.createdAt)!,
  }));
}

/** Editions the caller may see at all: their tenant, an owner and a creator not blocked with them (their own always). */
const visibleTo = (caller: Caller, at = Date.now()) =>
  sql`c.project_code = ${caller.projectCode} and (e.owner_member_id = ${caller.memberId} or
    (${notBlockedWith(caller.memberId, sql`e.owner_member_id`, at)} and ${notBlockedWith(caller.memberId, sql`c.creator_member_id`, at)}))`;

async function editionRows(env: Env, caller: Caller, where: SQL, tail?: SQL) {
  return getDb(env).all<EditionRow>(editionsSql(caller.memberId, sql`${visibleTo(caller)} and ${where}`, tail));
}

async function visibleEdition(env: Env, caller: Caller, idEdition: number) {
  const [row] = await editionRows(env, caller, sql`e.id_edition = ${idEdition}`);
  if (!row) throw new AppError("notFound");
  return row;
}

export async function mine(env: Env, caller: Caller) {
  return toEditions(env, caller, await editionRows(env, caller, sql`e.owner_member_id = ${caller.memberId}`, sql`order by e.id_edition desc limit 500`));
}

/** A suspended or deleted account buys nothing (the session guard lets a suspended member read). */
const accountActive = (memberId: string) => sql`exists (select 1 from members b where b.id = ${memberId} and b.status = 'active')`;

/** The member's purchases of the last 24 hours plus this one stay within DAILY_BUY_AMOUNT_MAX (in SQL, so races hold). */
const withinDailyLimit = (memberId: string, amount: SQL, at: number) =>
  sql`(select coalesce(sum(price), 0) from collectible_trades where buyer_member_id = ${memberId} and created_at > ${at - DAY}) + ${amount} <= ${DAILY_BUY_AMOUNT_MAX}`;

/** Only a live account sells: a suspended or deleted member's listings leave the market (and cannot be bought). */
const sellerActive = sql`exists (select 1 from members m where m.id = e.owner_member_id and m.status = 'active')`;

export async function listed(env: Env, caller: Caller, pageSize: number) {
  const rows = await editionRows(env, caller, sql`e.price is not null and e.owner_member_id <> ${caller.memberId} and ${sellerActive}`, sql`order by e.listed_at desc, e.id_edition desc limit ${pageSize}`);
  return toEditions(env, caller, rows);
}

type TradeRow = { idTrade: number; idEdition: number; sellerId: string; buyerId: string; price: number; gas: number; createdAt: number };

export async function edition(env: Env, caller: Caller, idEdition: number): Promise<CollectibleDetail> {
  const [item] = await toEditions(env, caller, [await visibleEdition(env, caller, idEdition)]);
  const trades = await getDb(env).all<TradeRow & { sellerVisible: number; buyerVisible: number }>(sql`select id_trade as idTrade, id_edition as idEdition,
      seller_member_id as sellerId, buyer_member_id as buyerId, price, gas, created_at as createdAt,
      (${notBlockedWith(caller.memberId, sql`seller_member_id`)}) as sellerVisible, (${notBlockedWith(caller.memberId, sql`buyer_member_id`)}) as buyerVisible
    from collectible_trades where id_edition = ${idEdition} and project_code = ${caller.projectCode} order by id_trade desc limit 100`);
  const people = await profileSummaries(env, caller.projectCode, [...new Set(trades.flatMap((t) => [t.sellerId, t.buyerId]))], await viewerFor(env, caller.memberId));
  // "A bought B's photo" outs an interest: a trade names its parties only to those two (and never across a block).
  const party = (t: TradeRow) => t.sellerId === caller.memberId || t.buyerId === caller.memberId;
  const who = (t: TradeRow, id: string, visible: number): ProfileSummary | null => (visible && party(t) ? (people.get(id) ?? null) : null);
  return {
    ...item!,
    trades: trades.map((t) => ({ idTrade: t.idTrade, amount: t.price, gas: t.gas, seller: who(t, t.sellerId, t.sellerVisible), buyer: who(t, t.buyerId, t.buyerVisible), dateAdd: iso(t.createdAt)! })),
  };
}

/** The caller's mints, purchases and sales, newest first; a counterparty blocked either way is not named. */
export async function history(env: Env, caller: Caller, pageSize: number): Promise<CollectibleEvent[]> {
  const db = getDb(env);
  const [mints, trades] = await Promise.all([
    db.all<{ idCollectible: number; editionSize: number; gas: number; createdAt: number }>(sql`select id_collectible as idCollectible, edition_size as editionSize,
        gas, created_at as createdAt from collectibles where creator_member_id = ${caller.memberId} and project_code = ${caller.projectCode}
        order by id_collectible desc limit ${pageSize}`),
    db.all<TradeRow & { idCollectible: number; serial: number; editionSize: number; otherVisible: number }>(sql`select t.id_trade as idTrade, t.id_edition as idEdition,
        t.seller_member_id as sellerId, t.buyer_member_id as buyerId, t.price as price, t.gas as gas, t.created_at as createdAt,
        e.id_collectible as idCollectible, e.serial as serial, c.edition_size as editionSize,
        (${notBlockedWith(caller.memberId, sql`case when t.buyer_member_id = ${caller.memberId} then t.seller_member_id else t.buyer_member_id end`)}) as otherVisible
      from collectible_trades t join collectible_editions e on e.id_edition = t.id_edition join collectibles c on c.id_collectible = e.id_collectible
      where t.project_code = ${caller.projectCode} and (t.buyer_member_id = ${caller.memberId} or t.seller_member_id = ${caller.memberId})
      order by t.id_trade desc limit ${pageSize}`),
  ]);
  const other = (t: TradeRow) => (t.buyerId === caller.memberId ? t.sellerId : t.buyerId);
  const people = await profileSummaries(env, caller.projectCode, [...new Set(trades.map(other))], await viewerFor(env, caller.memberId));
  const events: (CollectibleEvent & { at: number })[] = [
    ...mints.map((m) => ({ kind: "mint" as const, idCollectible: m.idCollectible, idEdition: null, serial: m.editionSize, editionSize: m.editionSize, counterparty: null, amount: 0, gas: m.gas, dateAdd: iso(m.createdAt)!, at: m.createdAt })),
    ...trades.map((t) => {
      const bought = t.buyerId === caller.memberId;
      return {
        kind: bought ? ("bought" as const) : ("sold" as const),
        idCollectible: t.idCollectible,
        idEdition: t.idEdition,
        serial: t.serial,
        editionSize: t.editionSize,
        counterparty: t.otherVisible ? (people.get(other(t)) ?? null) : null,
        amount: t.price,
        gas: bought ? t.gas : 0,
        dateAdd: iso(t.createdAt)!,
        at: t.createdAt,
      };
    }),
  ];
  return events
    .sort((a, b) => b.at - a.at)
    .slice(0, pageSize)
    .map(({ at: _at, ...event }) => event);
}

type MintRow = { idCollectible: number; idBanner: number; editionSize: number; gas: number; createdAt: number };
const findMint = (env: Env, caller: Caller, requestId: string) =>
  getDb(env).get<MintRow>(sql`select id_collectible as idCollectible, id_banner as idBanner, edition_size as editionSize, gas, created_at as createdAt
    from collectibles where creator_member_id = ${caller.memberId} and request_id = ${requestId}`);

async function mintResult(env: Env, caller: Caller, row: MintRow, replayed: boolean): Promise<MintResult> {
  const rows = await editionRows(env, caller, sql`e.id_collectible = ${row.idCollectible} and e.owner_member_id = ${caller.memberId}`, sql`order by e.serial limit 100`);
  return { idCollectible: row.idCollectible, editionSize: row.editionSize, gas: row.gas, editions: await toEditions(env, caller, rows), balance: await coinInfo(env, caller.memberId), replayed };
}

/**
 * Mints editions 1..N of one of the caller's own photos, paying the mint gas, in ONE batch: the collectible row is
 * inserted only for the caller's photo in their tenant, not yet minted (unique photo), with the gas covered; the editions
 * and the gas ledger row are selected from that row. The same request id replays the first answer.
 */
export async function mint(env: Env, caller: Caller, body: { idBanner: number; editionSize: number; requestId: string }): Promise<MintResult> {
  const existing = await findMint(env, caller, body.requestId);
  if (existing) {
    if (existing.idBanner !== body.idBanner || existing.editionSize !== body.editionSize) throw new AppError("collectibleRequestReused");
    return mintResult(env, caller, existing, true);
  }
  const db = getDb(env);
  const photo = await db.get<{ id: number }>(sql`select id_banner as id from banners where id_banner = ${body.idBanner}
    and project_code = ${caller.projectCode} and member_id = ${caller.memberId}`);
  if (!photo) throw new AppError("photoNotFound");
  const minted = async () => db.get<{ id: number }>(sql`select id_collectible as id from collectibles where id_banner = ${body.idBanner}`);
  if (await minted()) throw new AppError("collectibleAlreadyMinted");
  if ((await coinInfo(env, caller.memberId)).mcoin < MINT_GAS_AMOUNT / 100) throw new AppError("insufficientCoins");
  const at = Date.now();
  const stored = sql`from collectibles c where c.creator_member_id = ${caller.memberId} and c.request_id = ${body.requestId} and c.created_at = ${at}`;
  await d1Batch(env, [
    sql`insert or ignore into collectibles (project_code, id_banner, creator_member_id, edition_size, gas, request_id, created_at)
      select ${caller.projectCode}, b.id_banner, ${caller.memberId}, ${body.editionSize}, ${MINT_GAS_AMOUNT}, ${body.requestId}, ${at}
      from banners b where b.id_banner = ${body.idBanner} and b.project_code = ${caller.projectCode} and b.member_id = ${caller.memberId}
        and ${balanceSql(caller.memberId)} >= ${MINT_GAS_AMOUNT / 100}`,
    sql`with recursive serials(n) as (select 1 union all select n + 1 from serials where n < ${body.editionSize})
      insert or ignore into collectible_editions (project_code, id_collectible, serial, owner_member_id, created_at)
      select c.project_code, c.id_collectible, serials.n, c.creator_member_id, c.created_at from serials, collectibles c
      where c.creator_member_id = ${caller.memberId} and c.request_id = ${body.requestId} and c.created_at = ${at}`,
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select c.project_code, c.creator_member_id, 'mcoin', -(c.gas / 100), 'collectibleMintGas', 'mint:' || c.id_collectible, c.created_at ${stored} and c.gas > 0`,
  ]);
  const row = await findMint(env, caller, body.requestId);
  if (row) return mintResult(env, caller, row, row.createdAt !== at);
  // The batch inserted nothing: a concurrent mint of the same photo won, or the gas was spent meanwhile.
  throw new AppError((await minted()) ? "collectibleAlreadyMinted" : "insufficientCoins");
}

/** Lists (or re-prices) the caller's own edition; each listing is a new `listing_seq`, sold at most once. */
export async function list(env: Env, caller: Caller, idEdition: number, amount: number): Promise<CollectibleEdition> {
  const [result] = await d1Batch(env, [
    sql`update collectible_editions set price = ${amount}, listing_seq = listing_seq + 1, listed_at = ${Date.now()}
      where id_edition = ${idEdition} and project_code = ${caller.projectCode} and owner_member_id = ${caller.memberId}`,
  ]);
  if (!result?.meta.changes) throw new AppError("notFound");
  const [item] = await toEditions(env, caller, [await visibleEdition(env, caller, idEdition)]);
  return item!;
}

export async function unlist(env: Env, caller: Caller, idEdition: number): Promise<CollectibleEdition> {
  await d1Batch(env, [
    sql`update collectible_editions set price = null, listed_at = null
      where id_edition = ${idEdition} and project_code = ${caller.projectCode} and owner_member_id = ${caller.memberId}`,
  ]);
  const row = await visibleEdition(env, caller, idEdition);
  if (row.ownerId !== caller.memberId) throw new AppError("notFound");
  const [item] = await toEditions(env, caller, [row]);
  return item!;
}

type StoredTrade = { idTrade: number; idEdition: number; price: number; gas: number; createdAt: number };
const findTrade = (env: Env, caller: Caller, requestId: string) =>
  getDb(env).get<StoredTrade>(sql`select id_trade as idTrade, id_edition as idEdition, price, gas, created_at as createdAt
    from collectible_trades where buyer_member_id = ${caller.memberId} and request_id = ${requestId}`);

async function buyResult(env: Env, caller: Caller, trade: StoredTrade, replayed: boolean): Promise<BuyResult> {
  const [item] = await toEditions(env, caller, [await visibleEdition(env, caller, trade.idEdition)]);
  return { edition: item!, amount: trade.price, gas: trade.gas, balance: await coinInfo(env, caller.memberId), replayed };
}

/**
 * Buys a listed edition at the price the buyer confirmed, plus the trade gas, in ONE batch. The trade row is inserted
 * only when, inside the batch: the edition is listed in the caller's tenant at exactly that price, by someone else, with
 * no block either way between buyer and seller (visibility.ts, in SQL), and the buyer's ledger covers price + gas. The
 * unique (edition, listing) key makes a listing sell once however many purchases race; the ownership change and the
 * three ledger rows are selected from the row this batch stored. The same request id replays the first answer.
 */
export async function buy(env: Env, caller: Caller, idEdition: number, body: { amount: number; requestId: string }): Promise<BuyResult> {
  const existing = await findTrade(env, caller, body.requestId);
  if (existing) {
    if (existing.idEdition !== idEdition || existing.price !== body.amount) throw new AppError("collectibleRequestReused");
    return buyResult(env, caller, existing, true);
  }
  const row = await visibleEdition(env, caller, idEdition);
  if (row.ownerId === caller.memberId) throw new AppError("collectibleOwnEdition");
  if (row.price === null) throw new AppError("collectibleNotForSale");
  if (row.price !== body.amount) throw new AppError("collectiblePriceChanged");
  const coins = (body.amount + TRADE_GAS_AMOUNT) / 100;
  if ((await coinInfo(env, caller.memberId)).mcoin < coins) throw new AppError("insufficientCoins");
  const at = Date.now();
  if (!(await getDb(env).get<{ ok: number }>(sql`select ${withinDailyLimit(caller.memberId, sql`${body.amount}`, at)} as ok`))?.ok) throw new AppError("collectibleDailyLimit");
  const stored = sql`from collectible_trades t where t.buyer_member_id = ${caller.memberId} and t.request_id = ${body.requestId} and t.created_at = ${at}`;
  const ledger = (member: SQL, amount: SQL, reason: string) =>
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select t.project_code, ${member}, 'mcoin', ${amount}, ${reason}, 'trade:' || t.id_trade, t.created_at ${stored}`;
  await d1Batch(env, [
    sql`insert or ignore into collectible_trades (project_code, id_edition, listing_seq, seller_member_id, buyer_member_id, price, gas, request_id, created_at)
      select e.project_code, e.id_edition, e.listing_seq, e.owner_member_id, ${caller.memberId}, e.price, ${TRADE_GAS_AMOUNT}, ${body.requestId}, ${at}
      from collectible_editions e where e.id_edition = ${idEdition} and e.project_code = ${caller.projectCode}
        and e.price = ${body.amount} and e.owner_member_id <> ${caller.memberId}
        and ${notBlockedWith(caller.memberId, sql`e.owner_member_id`, at)} and ${sellerActive} and ${accountActive(caller.memberId)}
        and ${withinDailyLimit(caller.memberId, sql`e.price`, at)}
        and ${balanceSql(caller.memberId)} >= (e.price + ${TRADE_GAS_AMOUNT}) / 100`,
    sql`update collectible_editions set owner_member_id = ${caller.memberId}, price = null, listed_at = null
      where id_edition = (select t.id_edition ${stored}) and owner_member_id = (select t.seller_member_id ${stored})
        and listing_seq = (select t.listing_seq ${stored})`,
    ledger(sql`t.buyer_member_id`, sql`-(t.price / 100)`, "collectibleBuy"),
    ledger(sql`t.buyer_member_id`, sql`-(t.gas / 100)`, "collectibleTradeGas"),
    ledger(sql`t.seller_member_id`, sql`t.price / 100`, "collectibleSale"),
  ]);
  const trade = await findTrade(env, caller, body.requestId);
  if (trade) return buyResult(env, caller, trade, trade.createdAt !== at);
  // Nothing stored: someone else bought it first, it was re-priced or taken off sale, or the coins were spent meanwhile.
  const now = await getDb(env).get<{ price: number | null; ownerId: string; active: number }>(sql`select e.price as price, e.owner_member_id as ownerId,
    ${sellerActive} as active from collectible_editions e where e.id_edition = ${idEdition}`);
  if (!now || now.price === null || now.ownerId === caller.memberId || !now.active) throw new AppError("collectibleNotForSale");
  if (now.price !== body.amount) throw new AppError("collectiblePriceChanged");
  if (!(await getDb(env).get<{ ok: number }>(sql`select ${withinDailyLimit(caller.memberId, sql`${body.amount}`, at)} as ok`))?.ok) throw new AppError("collectibleDailyLimit");
  throw new AppError("insufficientCoins");
}
