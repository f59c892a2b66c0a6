// Sub-members: a master's list, joining a master, freeing one, and the idle release (§4 Submember, §6 Master, §7 sub-members).
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { DAY, iso } from "../../lib/time";
import { isMasterGender, type SubmemberItem, type SubmemberJoined, type SubmemberList } from "../../contract/market";
import { viewerFor } from "../members/profile-summary";
import { isBlockedBetween, notBlockedWith } from "../members/visibility";
import { d1Batch } from "../../db/d1-batch";
import { namedD1Batch } from "../../db/named-batch";
import { notify } from "../notifications/notify";
import { P, isAncestor, masterOf, memberByNo, notifyLater, ownedSubmember, summary, visibleMemberByNo, type Caller, type ProfileRow, type WaitUntil } from "./market-members";

/** §4: a sub-member is freed after one month without login. */
export const IDLE_FREE_AFTER = 30 * DAY;

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

/**
 * The caller joins a master (§4: confirm, irreversible by the visitor). Ownership and the cycle check
 * are decided inside the one batch (a conditional insert), so two members joining each other at the
 * same moment cannot make a loop, and a member can never get two masters.
 */
export async function joinMaster(env: Env, caller: Caller, masterNo: string, ctx?: WaitUntil): Promise<SubmemberJoined> {
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

/** The master frees a sub-member (§4, two-step confirm in the page). */
export async function freeSubmember(env: Env, caller: Caller, simpleCode: string, ctx?: WaitUntil) {
  const sub = await ownedSubmember(env, caller, simpleCode);
  const at = Date.now();
  const owned = sql`exists (select 1 from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId})`;
  // The history reads `owned` before the release removes it: the order of the names is the batch's order.
  const { release } = await namedD1Batch(env, {
    history: sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select ${caller.projectCode}, ${sub.memberId}, ${caller.memberId}, 'freed', ${at} where ${owned}`,
    release: sql`delete from submembers where member_id = ${sub.memberId} and master_member_id = ${caller.memberId}`,
  });
  if (!release.meta.changes) throw new AppError("notFound");
  notifyLater(ctx, notify(env, { projectCode: caller.projectCode, memberId: sub.memberId, type: "submember", actor: caller, params: { event: "freed" } }));
  return { freed: true };
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
  const { released } = await namedD1Batch(env, {
    history: sql`insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at)
      select s.project_code, s.member_id, s.master_member_id, 'autoFreed', ${at} from submembers s where s.member_id in (${idle})`,
    released: sql`delete from submembers where member_id in (${idle})`,
  });
  return released.meta.changes ?? 0;
}
