// The market's shared pieces: the member card row and lookups, ownership and ancestry, deferred notices (§3 Submember, §4 Submember, §6 Master).
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import type { SubmemberProfile } from "../../contract/market";
import { toProfileSummary, type Viewer } from "../members/profile-summary";
import { isBlockedBetween } from "../members/visibility";

export type Caller = { memberId: string; memberNo: string; projectCode: string };
export type WaitUntil = { waitUntil(promise: Promise<unknown>): void };

export type ProfileRow = {
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
export const P = sql.raw(`p.id_profile as idProfile, p.member_id as memberId, p.simple_code as simpleCode, p.nickname as nickname,
  p.introduction as introduction, p.avator as avator, p.avator_blur as avatorBlur, p.qualify as qualify, p.blur as blur, p.blocked as blocked,
  p.multi_gender as multiGender, p.look_for as lookFor, p.kyc_status as kycStatus, p.closed as closed,
  p.is_rainbow as isRainbow, p.last_access as lastAccess, p.bidding_count as biddingCount`);

export function summary(row: ProfileRow, viewer: Viewer): SubmemberProfile {
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
export async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env).get<ProfileRow & { status: string }>(sql`select ${P}, m.status as status
    from profiles p join members m on m.id = p.member_id
    where p.project_code = ${projectCode} and p.simple_code = ${memberNo}`);
  if (!row || row.status === "deleted") throw new AppError("notFound");
  return row;
}

/** The same, but a member blocked either way with the viewer does not exist for them (404). */
export async function visibleMemberByNo(env: Env, projectCode: string, memberNo: string, viewerId: string | null) {
  const row = await memberByNo(env, projectCode, memberNo);
  if (viewerId && viewerId !== row.memberId && (await isBlockedBetween(env, viewerId, row.memberId))) throw new AppError("notFound");
  return row;
}

export async function masterOf(env: Env, memberId: string): Promise<string | null> {
  const row = await getDb(env).get<{ master: string }>(sql`select master_member_id as master from submembers where member_id = ${memberId}`);
  return row?.master ?? null;
}

export function notifyLater(ctx: WaitUntil | undefined, work: Promise<unknown>) {
  const guarded = work.catch((error) => console.warn(JSON.stringify({ level: "warn", message: "market notify failed", error: String(error) })));
  if (ctx) ctx.waitUntil(guarded);
}

/** Walks up from `memberId` through its masters: is `ancestorId` among them? (Used to refuse cycles.) */
export async function isAncestor(env: Env, projectCode: string, ancestorId: string, memberId: string) {
  const row = await getDb(env).get<{ n: number }>(sql`with recursive up(id, depth) as (
      select ${memberId}, 0
      union select s.master_member_id, up.depth + 1 from submembers s join up on s.member_id = up.id
        where s.project_code = ${projectCode} and up.depth < 64)
    select count(*) as n from up where id = ${ancestorId}`);
  return (row?.n ?? 0) > 0;
}

/** The caller must be the sub-member's master: the sub-member itself or anyone else is 403, unknown/unowned 404. */
export async function ownedSubmember(env: Env, caller: Caller, simpleCode: string) {
  const sub = await memberByNo(env, caller.projectCode, simpleCode);
  const owner = await masterOf(env, sub.memberId);
  if (!owner) throw new AppError("notFound");
  if (owner !== caller.memberId) throw new AppError("notYourSubmember");
  return sub;
}
