import { sql } from "drizzle-orm";
import { nicknameContains } from "../members/nickname-search";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { DAY, iso, utcDate } from "../../lib/time";
import { randomString } from "../../lib/crypto";
import {
  BIDDING_STACK_MAX,
  isMasterGender,
  type BiddingCard,
  type BiddingLoop,
  type Hierarchy,
  type HierarchyEvent,
  type HierarchyHistoryItem,
  type LastBidding,
  type PopularKeyword,
  type SubmemberItem,
  type SubmemberList,
  type SubmemberNode,
  type SubmemberProfile,
} from "../../contract/market";
import type { ProfileSummary } from "../../contract/profile-summary";
import { profileSummaries, toProfileSummary, viewerFor, type Viewer } from "../members/profile-summary";
import { isBlockedBetween, notBlockedWith } from "../members/visibility";
import { d1Batch, deferD1Batch } from "./d1-batch";
import { notify } from "../notifications/notify";
import { connectionsOpenSql } from "../social/connections-visibility";

/** A listing stays open this long without bids; every bid restarts a shorter countdown (the bidding loop). */
export const LISTING_TTL = 3 * DAY;
export const BID_LOOP = DAY;
/** §4: a sub-member is freed after one month without login. */
export const IDLE_FREE_AFTER = 30 * DAY;
/** Trees are shown this many levels deep (cycles are impossible, this only bounds the page). */
const TREE_DEPTH = 6;
const TREE_NODES = 300;

type Caller = { memberId: string; memberNo: string; projectCode: string };
type WaitUntil = { waitUntil(promise: Promise<unknown>): void };

type ProfileRow = {
  idProfile: number;
  memberId: string;
  simpleCode: string;
  nickname: string;
  introduction: string;
  avator: string;
  avatorBlur: string;
  qualify: number | boolean;
  blur: number | boolean;
  blocked: number | boolean;
  multiGender: number | null;
  lookFor: number;
  kycStatus: number;
  closed: number | boolean;
  isRainbow: number | boolean;
  lastAccess: number | null;
  biddingCount: number;
};

/** Raw-SQL profile columns for `p` (same fields as profileSummaryColumns, plus introduction). */
const P = sql.raw(`p.id_profile as idProfile, p.member_id as memberId, p.simple_code as simpleCode, p.nickname as nickname,
  p.introduction as introduction, p.avator as avator, p.avator_blur as avatorBlur, p.qualify as qualify, p.blur as blur, p.blocked as blocked,
  p.multi_gender as multiGender, p.look_for as lookFor, p.kyc_status as kycStatus, p.closed as closed,
  p.is_rainbow as isRainbow, p.last_access as lastAccess, p.bidding_count as biddingCount`);

function summary(row: ProfileRow, viewer: Viewer): SubmemberProfile {
  return {
    ...toProfileSummary(
      {
        ...row,
        qualify: Boolean(row.qualify),
        blur: Boolean(row.blur),
        blocked: Boolean(row.blocked),
        closed: Boolean(row.closed),
        isRainbow: Boolean(row.isRainbow),
      },
      viewer,
    ),
    // A closed member's introduction stays off market cards, except their own (profile-access.ts).
    introduction: row.closed && viewer?.memberId !== row.memberId ? "" : row.introduction,
  };
}

/** A live member of the tenant by member number, or 404 (unknown, other tenant, deleted). */
async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env).get<ProfileRow & { status: string }>(sql`select ${P}, m.status as status
    from profiles p join members m on m.id = p.member_id
    where p.project_code = ${projectCode} and p.simple_code = ${memberNo}`);
  if (!row || row.status === "deleted") throw new AppError("notFound");
  return row;
}

/** The same, but a member blocked either way with the viewer does not exist for them (404). */
async function visibleMemberByNo(env: Env, projectCode: string, memberNo: string, viewerId: string | null) {
  const row = await memberByNo(env, projectCode, memberNo);
  if (viewerId && viewerId !== row.memberId && (await isBlockedBetween(env, viewerId, row.memberId))) throw new AppError("notFound");
  return row;
}

async function masterOf(env: Env, memberId: string): Promise<string | null> {
  const row = await getDb(env).get<{ master: string }>(sql`select master_member_id as master from submembers where member_id = ${memberId}`);
  return row?.master ?? null;
}

function notifyLater(ctx: WaitUntil | undefined, work: Promise<unknown>) {
  const guarded = work.catch((error) => console.warn(JSON.stringify({ level: "warn", message: "market notify failed", error: String(error) })));
  if (ctx) ctx.waitUntil(guarded);
}

// ---------------------------------------------------------------------------------------------------------
// Sub-members (§4 Submember, §6 Master)

/** A master's direct sub-members, newest first. Blocked pairs are hidden from the viewer. */
export async function submemberList(env: Env, projectCode: string, masterNo: string, viewerId: string | null): Promise<SubmemberList> {
  const master = await visibleMemberByNo(env, projectCode, masterNo, viewerId);
  const viewer = await viewerFor(env, viewerId);
  const rows = await getDb(env).all<ProfileRow & { joinedAt: number }>(sql`select ${P}, s.joined_at as joinedAt
    from submembers s join profiles p on p.member_id = s.member_id
    where s.project_code = ${projectCode} and s.master_member_id = ${master.memberId}
      and ${notBlockedWith(viewerId, sql.raw("s.member_id"))}
    order by s.joined_at desc limit 200`);
  const subMembers: SubmemberItem[] = rows.map((row) => ({ profile: summary(row, viewer), dateAdd: iso(row.joinedAt)!, biddingCount: row.biddingCount }));
  let viewerOptions: SubmemberList["viewer"] = null;
  if (viewerId) {
    const viewerMaster = await masterOf(env, viewerId);
    const isMaster = viewerId === master.memberId;
    const owned = viewerMaster !== null;
    viewerOptions = {
      isMaster,
      owned,
      isSubmember: viewerMaster === master.memberId,
      canJoin: !isMaster && !owned && isMasterGender(master.multiGender) && !(await isAncestor(env, projectCode, viewerId, master.memberId)),
    };
  }
  return { master: summary(master, viewer), subMembers, viewer: viewerOptions };
}

/** Walks up from `memberId` through its masters: is `ancestorId` among them? (Used to refuse cycles.) */
async function isAncestor(env: Env, projectCode: string, ancestorId: string, memberId: string) {
  const row = await getDb(env).get<{ n: number }>(sql`with recursive up(id, depth) as (
      select ${memberId}, 0
      union select s.master_member_id, up.depth + 1 from submembers s join up on s.member_id = up.id
        where s.project_code = ${projectCode} and up.depth < 64)
    select count(*) as n from up where id = ${ancestorId}`);
  return (row?.n ?? 0) > 0;
}

/**
 * The caller joins a master (§4: confirm, irreversible by the visitor). Ownership and the cycle check
 * are decided inside the one batch (a conditional insert), so two members joining each other at the
 * same moment cannot make a loop, and a member can never get two masters.
 */
export async function joinMaster(env: Env, caller: Caller, masterNo: string, ctx?: WaitUntil) {
  const master = await memberByNo(env, caller.projectCode, masterNo);
  if (master.memberId === caller.memberId) throw new AppError("joinSelf");
  if (await isBlockedBetween(env, caller.memberId, master.memberId)) throw new AppError("notFound");
  if (!isMasterGender(master.multiGender)) throw new AppError("notAMaster");
  const db = getDb(env);
  const at = Date.now();
  const project = caller.projectCode;
  // Not a cycle: the caller must not be the master or any of the master's masters.
  const noCycle = sql`not exists (with recursive up(id, depth) as (
      select ${master.memberId}, 0
      union select s.master_member_id, up.depth + 1 from submembers s join up on s.member_id = up.id
        where s.project_code = ${project} and up.depth < 64)
    select 1 from up where id = ${caller.memberId})`;
  const joinedNow = sql`exists (select 1 from submembers where member_id = ${caller.memberId} and master_member_id = ${master.memberId} and joined_at = ${at})`;
  await d1Batch(env, [
    sql`insert or ignore into submembers (member_id, project_code, master_member_id, joined_at)
      select ${caller.memberId}, ${project}, ${master.memberId}, ${at} where ${noCycle}`,
    sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select ${project}, ${caller.memberId}, ${master.memberId}, 'joined', ${at} where ${joinedNow}`,
    // A member on the market who joins someone leaves the market.
    sql`delete from market_listings where member_id = ${caller.memberId} and ${joinedNow}`,
  ]);
  const owner = await masterOf(env, caller.memberId);
  if (owner === master.memberId) {
    const row = await db.get<{ joinedAt: number }>(sql`select joined_at as joinedAt from submembers where member_id = ${caller.memberId}`);
    if (row?.joinedAt === at) {
      notifyLater(ctx, notify(env, { projectCode: project, memberId: master.memberId, type: "submember", actor: caller, params: { event: "joined" } }));
      return { joined: true };
    }
  }
  // §8 Cannot join: already owned (by anyone, this master included).
  if (owner) throw new AppError("cannotJoin");
  throw new AppError("hierarchyCycle");
}

/** The caller must be the sub-member's master: the sub-member itself or anyone else is 403, unknown/unowned 404. */
async function ownedSubmember(env: Env, caller: Caller, simpleCode: string) {
  const sub = await memberByNo(env, caller.projectCode, simpleCode);
  const owner = await masterOf(env, sub.memberId);
  if (!owner) throw new AppError("notFound");
  if (owner !== caller.memberId) throw new AppError("notYourSubmember");
  return sub;
}

/** The master frees a sub-member (§4, two-step confirm in the page). */
export async function freeSubmember(env: Env, caller: Caller, simpleCode: string, ctx?: WaitUntil) {
  const sub = await ownedSubmember(env, caller, simpleCode);
  const at = Date.now();
  const owned = sql`exists (select 1 from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId})`;
  const results = await d1Batch(env, [
    sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select ${caller.projectCode}, ${sub.memberId}, ${caller.memberId}, 'freed', ${at} where ${owned}`,
    sql`delete from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId}`,
  ]);
  if (!results[1]?.meta.changes) throw new AppError("notFound");
  notifyLater(ctx, notify(env, { projectCode: caller.projectCode, memberId: sub.memberId, type: "submember", actor: caller, params: { event: "freed" } }));
  return { freed: true };
}

/**
 * The master sells a sub-member to the market (§7 game/market/slave {simpleCode}): ownership ends and a
 * listing opens for bids; when its countdown ends the last bidder becomes the master (settleListings).
 */
export async function sellSubmember(env: Env, caller: Caller, simpleCode: string, ctx?: WaitUntil) {
  const sub = await ownedSubmember(env, caller, simpleCode);
  const at = Date.now();
  const owned = sql`exists (select 1 from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId})`;
  const results = await d1Batch(env, [
    sql`insert or replace into market_listings (member_id, project_code, seller_member_id, last_bidder_member_id, bidding_count, due_date, listed_at)
      select ${sub.memberId}, ${caller.projectCode}, ${caller.memberId}, null, 0, ${at + LISTING_TTL}, ${at} where ${owned}`,
    sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select ${caller.projectCode}, ${sub.memberId}, ${caller.memberId}, 'sold', ${at} where ${owned}`,
    sql`delete from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId}`,
  ]);
  if (!results[2]?.meta.changes) throw new AppError("notFound");
  notifyLater(ctx, notify(env, { projectCode: caller.projectCode, memberId: sub.memberId, type: "submember", actor: caller, params: { event: "sold" } }));
  return { sold: true, dueDate: iso(at + LISTING_TTL) };
}

// ---------------------------------------------------------------------------------------------------------
// Hierarchy (§3 Submember {profile, subNodes}, Hierarchy history)

export async function hierarchy(env: Env, projectCode: string, memberNo: string, viewerId: string): Promise<Hierarchy> {
  const root = await visibleMemberByNo(env, projectCode, memberNo, viewerId);
  const db = getDb(env);
  const edges = await db.all<{ id: string; parent: string; depth: number }>(sql`with recursive down(id, parent, depth) as (
      select member_id, master_member_id, 1 from submembers where project_code = ${projectCode} and master_member_id = ${root.memberId}
      union select s.member_id, s.master_member_id, down.depth + 1 from submembers s join down on s.master_member_id = down.id
        where s.project_code = ${projectCode} and down.depth < ${TREE_DEPTH}
          -- A sub-member's own sub-members are their connections (README "Who sees my connections"): not below a hidden one.
          and ${connectionsOpenSql(sql.raw("down.id"), viewerId)})
    select id, parent, depth from down
    where ${notBlockedWith(viewerId, sql.raw("down.id"))}
    order by depth limit ${TREE_NODES}`);
  const masters = await db.all<{ id: string; depth: number }>(sql`with recursive up(id, depth) as (
      select master_member_id, 1 from submembers where member_id = ${root.memberId} and project_code = ${projectCode}
      union select s.master_member_id, up.depth + 1 from submembers s join up on s.member_id = up.id
        where s.project_code = ${projectCode} and up.depth < ${TREE_DEPTH}
          -- A master's own master is their connection: the chain stops above one who hides them.
          and ${connectionsOpenSql(sql.raw("up.id"), viewerId)})
    select id, depth from up where ${notBlockedWith(viewerId, sql.raw("up.id"))} order by depth`);
  const viewer = await viewerFor(env, viewerId);
  const profiles = await profileSummaries(env, projectCode, [root.memberId, ...edges.map((e) => e.id), ...masters.map((m) => m.id)], viewer);
  // Built from the root down with a visited set: every member appears once, so the tree has no cycle
  // even if the data ever had one.
  const children = new Map<string, string[]>();
  for (const edge of edges) children.set(edge.parent, [...(children.get(edge.parent) ?? []), edge.id]);
  const visited = new Set<string>([root.memberId]);
  const build = (id: string): SubmemberNode[] =>
    (children.get(id) ?? [])
      .filter((child) => !visited.has(child) && profiles.has(child) && visited.add(child))
      .map((child) => ({ profile: profiles.get(child)!, subNodes: build(child) }));
  const rootProfile = profiles.get(root.memberId)!;
  return {
    profile: rootProfile,
    subNodes: build(root.memberId),
    masters: masters.map((m) => profiles.get(m.id)).filter((p): p is ProfileSummary => Boolean(p)),
  };
}

export async function hierarchyHistory(env: Env, projectCode: string, memberNo: string, viewerId: string): Promise<HierarchyHistoryItem[]> {
  const member = await visibleMemberByNo(env, projectCode, memberNo, viewerId);
  const rows = await getDb(env).all<{ idHierarchyHistory: number; parent: string; event: HierarchyEvent; createdAt: number }>(sql`
    select id_hierarchy_history as idHierarchyHistory, parent_member_id as parent, event, created_at as createdAt
    from hierarchy_history where member_id = ${member.memberId} and project_code = ${projectCode}
    order by id_hierarchy_history desc limit 50`);
  const at = Date.now();
  const visible = await getDb(env).all<{ id: string }>(sql`select distinct parent_member_id as id from hierarchy_history h
    where h.member_id = ${member.memberId} and ${notBlockedWith(viewerId, sql.raw("h.parent_member_id"), at)}`);
  const allowed = new Set(visible.map((v) => v.id));
  const profiles = await profileSummaries(env, projectCode, [...allowed], await viewerFor(env, viewerId));
  return rows.map((row) => ({
    idHierarchyHistory: row.idHierarchyHistory,
    parentProfile: allowed.has(row.parent) ? (profiles.get(row.parent) ?? null) : null,
    event: row.event,
    dateAdd: iso(row.createdAt)!,
  }));
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

/**
 * Scheduled (§4): a sub-member with no login for one month is freed, with a history entry. Both
 * statements select the same members inside one batch, so every freed member has exactly one entry.
 */
export async function freeIdleSubmembers(env: Env, at = Date.now()) {
  const cutoff = at - IDLE_FREE_AFTER;
  const idle = sql`select s.member_id from submembers s join members m on m.id = s.member_id
    left join profiles p on p.member_id = s.member_id
    where max(coalesce(m.last_login_at, 0), coalesce(p.last_access, 0)) < ${cutoff}`;
  const results = await d1Batch(env, [
    sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select s.project_code, s.member_id, s.master_member_id, 'autoFreed', ${at} from submembers s where s.member_id in (${idle})`,
    sql`delete from submembers where member_id in (${idle})`,
  ]);
  return results[1]?.meta.changes ?? 0;
}

// ---------------------------------------------------------------------------------------------------------
// Search and hot-search keywords (§7 search/popular-keyword)

/**
 * One member's search never makes a public "hot search": a keyword is listed only after this many distinct members
 * searched it on the same UTC day (README "Hot searches need several members").
 */
export const HOT_SEARCH_MIN_MEMBERS = 3;

export const normalizeKeyword = (keyword: string) => keyword.trim().toLowerCase().replace(/\s+/g, " ").slice(0, 40);

/**
 * Nickname search for the market. A search that finds someone counts its keyword once per member per
 * UTC day (so one member cannot push a keyword up alone); `changes()` tells the counter whether this
 * member's first search of the day was just stored, inside the same batch.
 */
export async function searchMembers(env: Env, caller: Caller, keyword: string, pageSize: number): Promise<SubmemberProfile[]> {
  const at = Date.now();
  const db = getDb(env);
  const rows = await db.all<ProfileRow>(sql`select ${P} from profiles p
    where p.project_code = ${caller.projectCode} and ${nicknameContains(caller.projectCode, keyword.trim(), pageSize, sql.raw("p.id_profile"), sql.raw("p.nickname"))}
      and p.avator <> '' and p.qualify = 1 and p.blur = 0 and p.blocked = 0 and p.member_id <> ${caller.memberId}
      and ${notBlockedWith(caller.memberId, sql.raw("p.member_id"), at)}
    order by p.id_profile desc limit ${pageSize}`);
  const normalized = normalizeKeyword(keyword);
  // Counted after the response (deferred-writes.ts): the search itself is a read a replica can serve.
  if (rows.length > 0 && normalized) {
    deferD1Batch(env, [
      sql`insert or ignore into keyword_searches (project_code, keyword, member_id, day)
        values (${caller.projectCode}, ${normalized}, ${caller.memberId}, ${utcDate(at)})`,
      sql`insert into search_keywords (project_code, keyword, search_count, last_searched_at)
        select ${caller.projectCode}, ${normalized}, 1, ${at} where changes() > 0
        on conflict (project_code, keyword) do update set search_count = search_count + 1, last_searched_at = excluded.last_searched_at`,
      // README "Hot searches need several members": listed once enough distinct members searched it today.
      sql`update search_keywords set listed_at = ${at}
        where project_code = ${caller.projectCode} and keyword = ${normalized} and listed_at is null
          and (select count(*) from keyword_searches where project_code = ${caller.projectCode} and keyword = ${normalized}
            and day = ${utcDate(at)}) >= ${HOT_SEARCH_MIN_MEMBERS}`,
    ]);
  }
  const viewer = await viewerFor(env, caller.memberId);
  return rows.map((row) => summary(row, viewer));
}

export async function popularKeywords(env: Env, projectCode: string, pageSize: number): Promise<PopularKeyword[]> {
  return getDb(env).all<PopularKeyword>(sql`select keyword, search_count as searchCount from search_keywords
    where project_code = ${projectCode} and listed_at is not null order by search_count desc, last_searched_at desc limit ${pageSize}`);
}
