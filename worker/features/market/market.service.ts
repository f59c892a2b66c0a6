// Market listings and bids: selling a sub-member, the bidding cards, bids and the settling of ended countdowns (§3 biddingCount, lastBidding, Bidding loop; §4 Submember; §7 game/market, bidding-loops).
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { DAY, iso } from "../../lib/time";
import { randomString } from "../../lib/crypto";
import { BIDDING_STACK_MAX, isMasterGender, type BiddingCard, type BiddingLoop, type LastBidding } from "../../contract/market";
import type { ProfileSummary } from "../../contract/profile-summary";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { isBlockedBetween, notBlockedWith } from "../members/visibility";
import { d1Batch } from "../../db/d1-batch";
import { namedD1Batch } from "../../db/named-batch";
import { notify } from "../notifications/notify";
import { P, isAncestor, memberByNo, notifyLater, ownedSubmember, summary, visibleMemberByNo, type Caller, type ProfileRow, type WaitUntil } from "./market-members";

/** A listing stays open this long without bids; every bid restarts a shorter countdown (the bidding loop). */
export const LISTING_TTL = 3 * DAY;
export const BID_LOOP = DAY;

/**
 * The master sells a sub-member to the market (§7 game/market/slave {simpleCode}): ownership ends and a
 * listing opens for bids; when its countdown ends the last bidder becomes the master (settleListings).
 */
export async function sellSubmember(env: Env, caller: Caller, simpleCode: string, ctx?: WaitUntil) {
  const sub = await ownedSubmember(env, caller, simpleCode);
  const at = Date.now();
  const owned = sql`exists (select 1 from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId})`;
  // The listing and history read `owned` before the release removes it: the order of the names is the batch's order.
  const { release } = await namedD1Batch(env, {
    listing: sql`insert or replace into market_listings (member_id, project_code, seller_member_id, last_bidder_member_id, bidding_count, due_date, listed_at)
      select ${sub.memberId}, ${caller.projectCode}, ${caller.memberId}, null, 0, ${at + LISTING_TTL}, ${at} where ${owned}`,
    history: sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select ${caller.projectCode}, ${sub.memberId}, ${caller.memberId}, 'sold', ${at} where ${owned}`,
    release: sql`delete from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId}`,
  });
  if (!release.meta.changes) throw new AppError("notFound");
  notifyLater(ctx, notify(env, { projectCode: caller.projectCode, memberId: sub.memberId, type: "submember", actor: caller, params: { event: "sold" } }));
  return { sold: true, dueDate: iso(at + LISTING_TTL) };
}

// ---------------------------------------------------------------------------------------------------------
// Bidding (§3 biddingCount, lastBidding, Bidding loop; §5 bidding cards need nickname and introduction)

export async function biddingCards(env: Env, projectCode: string, viewerId: string, pageSize: number): Promise<BiddingCard[]> {
  const at = Date.now();
  // Close countdowns that ended since the last cron run, so the market never shows a finished auction
  // (one indexed read on due_date when nothing is due).
  await settleListings(env, at);
  const db = getDb(env);
  const rows = await db.all<ProfileRow & { seller: string; lastBidder: string | null; count: number; dueDate: number; listedAt: number }>(sql`
    select ${P}, l.seller_member_id as seller, l.last_bidder_member_id as lastBidder, l.bidding_count as count,
      l.due_date as dueDate, l.listed_at as listedAt
    from market_listings l join profiles p on p.member_id = l.member_id
    where l.project_code = ${projectCode} and l.due_date > ${at}
      and p.nickname <> '' and trim(p.introduction) <> '' and p.blocked = 0
      and ${notBlockedWith(viewerId, sql.raw("l.member_id"), at)}
    order by l.listed_at desc limit ${pageSize}`);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.memberId);
  // Most recent distinct bidders per card since it was listed, at most §9's five, in one query.
  const stack = await db.all<{ target: string; bidder: string }>(sql`select target, bidder from (
      select b.target_member_id as target, b.bidder_member_id as bidder,
        row_number() over (partition by b.target_member_id order by max(b.id_bidding_loop) desc) as rn
      from bidding_loops b join market_listings l on l.member_id = b.target_member_id and b.created_at >= l.listed_at
      where b.target_member_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
        and ${notBlockedWith(viewerId, sql.raw("b.bidder_member_id"), at)}
      group by b.target_member_id, b.bidder_member_id)
    where rn <= ${BIDDING_STACK_MAX} order by target, rn`);
  const viewer = await viewerFor(env, viewerId);
  const people = await profileSummaries(env, projectCode, [...rows.flatMap((r) => [r.seller, r.lastBidder ?? ""]), ...stack.map((s) => s.bidder)].filter(Boolean), viewer);
  const visibleToViewer = new Set(stack.map((s) => s.bidder));
  // The same rules createBid refuses with mastersOnlyBid, bidSelf and alreadyLastBidder (the cycle check stays there).
  const me = await db.get<{ multiGender: number | null }>(sql`select multi_gender as multiGender from profiles where member_id = ${viewerId}`);
  const master = isMasterGender(me?.multiGender);
  return rows.map((row) => ({
    profile: summary(row, viewer),
    biddingCount: row.count,
    lastBidding: {
      dueDate: iso(row.dueDate)!,
      profile: row.lastBidder && visibleToViewer.has(row.lastBidder) ? (people.get(row.lastBidder) ?? null) : null,
    },
    bidders: stack.filter((s) => s.target === row.memberId).map((s) => people.get(s.bidder)).filter((p): p is ProfileSummary => Boolean(p)),
    seller: people.get(row.seller) ?? null,
    listedAt: iso(row.listedAt)!,
    canBid: master && row.memberId !== viewerId && row.lastBidder !== viewerId,
  }));
}

/**
 * §3 Profile lastBidding (dueDate, profile) for the member's own profile: while they are on the market, the
 * listing's countdown and its last bidder; afterwards the last bid they received; null when nobody ever bid and
 * they are not listed. A bidder blocked either way is left out (profile null), as on the market cards.
 */
export async function lastBiddingOf(env: Env, projectCode: string, memberId: string): Promise<LastBidding | null> {
  const db = getDb(env);
  const listing = await db.get<{ dueDate: number; bidder: string | null }>(sql`select due_date as dueDate, last_bidder_member_id as bidder
    from market_listings where member_id = ${memberId} and project_code = ${projectCode}`);
  const loop = listing
    ? null
    : await db.get<{ dueDate: number; bidder: string }>(sql`select due_date as dueDate, bidder_member_id as bidder from bidding_loops
        where target_member_id = ${memberId} and project_code = ${projectCode} order by id_bidding_loop desc limit 1`);
  const found = listing ?? loop;
  if (!found) return null;
  const bidder = found.bidder && !(await isBlockedBetween(env, memberId, found.bidder)) ? found.bidder : null;
  const people = bidder ? await profileSummaries(env, projectCode, [bidder], await viewerFor(env, memberId)) : new Map<string, ProfileSummary>();
  return { dueDate: iso(found.dueDate)!, profile: (bidder && people.get(bidder)) || null };
}

/**
 * A bid (§7 bidding-loops create {targetMemberNo}). Only masters bid (the winner becomes the master).
 * The insert is conditional on the listing being open, and the listing update is keyed to this bid's
 * own row, so a bid racing the close of the listing is either fully in or fully out.
 */
export async function createBid(env: Env, caller: Caller, targetNo: string, ctx?: WaitUntil): Promise<BiddingLoop> {
  const target = await visibleMemberByNo(env, caller.projectCode, targetNo, caller.memberId);
  if (target.memberId === caller.memberId) throw new AppError("bidSelf");
  const me = await memberByNo(env, caller.projectCode, caller.memberNo);
  if (!isMasterGender(me.multiGender)) throw new AppError("mastersOnlyBid");
  const db = getDb(env);
  const at = Date.now();
  const listing = await db.get<{ lastBidder: string | null; dueDate: number }>(sql`select last_bidder_member_id as lastBidder, due_date as dueDate
    from market_listings where member_id = ${target.memberId} and project_code = ${caller.projectCode}`);
  if (!listing || listing.dueDate <= at) throw new AppError("notOnMarket");
  if (listing.lastBidder === caller.memberId) throw new AppError("alreadyLastBidder");
  // The winner would become the target's master: refuse a bid that could only end in a loop.
  if (await isAncestor(env, caller.projectCode, target.memberId, caller.memberId)) throw new AppError("hierarchyCycle");
  const requestKey = randomString(24);
  const dueDate = at + BID_LOOP;
  const mine = sql`exists (select 1 from bidding_loops where request_key = ${requestKey})`;
  await d1Batch(env, [
    sql`insert into bidding_loops (project_code, target_member_id, bidder_member_id, request_key, due_date, created_at)
      select ${caller.projectCode}, ${target.memberId}, ${caller.memberId}, ${requestKey}, ${dueDate}, ${at}
      where exists (select 1 from market_listings where member_id = ${target.memberId} and due_date > ${at}
        and (last_bidder_member_id is null or last_bidder_member_id <> ${caller.memberId}))`,
    sql`update market_listings set last_bidder_member_id = ${caller.memberId}, bidding_count = bidding_count + 1,
      due_date = max(due_date, ${dueDate}) where member_id = ${target.memberId} and ${mine}`,
    sql`update profiles set bidding_count = bidding_count + 1 where member_id = ${target.memberId} and ${mine}`,
  ]);
  const row = await db.get<{ id: number }>(sql`select id_bidding_loop as id from bidding_loops where request_key = ${requestKey}`);
  if (!row) throw new AppError("notOnMarket");
  notifyLater(ctx, notify(env, { projectCode: caller.projectCode, memberId: target.memberId, type: "submember", actor: caller, params: { event: "bid" } }));
  return getBiddingLoop(env, caller.projectCode, row.id, caller.memberId);
}

export async function getBiddingLoop(env: Env, projectCode: string, id: number, viewerId: string): Promise<BiddingLoop> {
  const row = await getDb(env).get<{ target: string; bidder: string; dueDate: number; createdAt: number }>(sql`
    select target_member_id as target, bidder_member_id as bidder, due_date as dueDate, created_at as createdAt
    from bidding_loops where id_bidding_loop = ${id} and project_code = ${projectCode}`);
  if (!row) throw new AppError("notFound");
  if ((await isBlockedBetween(env, viewerId, row.target)) || (await isBlockedBetween(env, viewerId, row.bidder))) throw new AppError("notFound");
  const people = await profileSummaries(env, projectCode, [row.target, row.bidder], await viewerFor(env, viewerId));
  return { idBiddingLoop: id, profile: people.get(row.bidder) ?? null, target: people.get(row.target) ?? null, dueDate: iso(row.dueDate)!, dateAdd: iso(row.createdAt)! };
}

/**
 * Scheduled: listings whose countdown ended. With a last bidder the member joins them (same rules as a
 * join: not owned meanwhile, no cycle, no block); without, the listing just closes.
 */
export async function settleListings(env: Env, at = Date.now()) {
  const db = getDb(env);
  const due = await db.all<{ memberId: string; projectCode: string; bidder: string | null; seller: string }>(sql`
    select member_id as memberId, project_code as projectCode, last_bidder_member_id as bidder, seller_member_id as seller
    from market_listings where due_date <= ${at} limit 200`);
  for (const listing of due) {
    const closeIt = sql`delete from market_listings where member_id = ${listing.memberId} and due_date <= ${at}`;
    if (!listing.bidder || (await isBlockedBetween(env, listing.bidder, listing.memberId, at))) {
      await d1Batch(env, [closeIt]);
      continue;
    }
    const noCycle = sql`not exists (with recursive up(id, depth) as (
        select ${listing.bidder}, 0
        union select s.master_member_id, up.depth + 1 from submembers s join up on s.member_id = up.id
          where s.project_code = ${listing.projectCode} and up.depth < 64)
      select 1 from up where id = ${listing.memberId})`;
    const wonNow = sql`exists (select 1 from submembers where member_id = ${listing.memberId} and master_member_id = ${listing.bidder} and joined_at = ${at})`;
    await d1Batch(env, [
      sql`insert or ignore into submembers (member_id, project_code, master_member_id, joined_at)
        select ${listing.memberId}, ${listing.projectCode}, ${listing.bidder}, ${at}
        where ${noCycle} and exists (select 1 from market_listings where member_id = ${listing.memberId} and due_date <= ${at})`,
      sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
        select ${listing.projectCode}, ${listing.memberId}, ${listing.bidder}, 'won', ${at} where ${wonNow}`,
      closeIt,
    ]);
    const won = await db.get<{ n: number }>(sql`select count(*) as n from submembers where member_id = ${listing.memberId} and master_member_id = ${listing.bidder} and joined_at = ${at}`);
    if (won?.n) {
      await notify(env, { projectCode: listing.projectCode, memberId: listing.bidder, type: "submember", params: { event: "won" } }).catch(() => null);
    }
  }
  return due.length;
}
