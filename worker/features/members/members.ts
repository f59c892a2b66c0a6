import { sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { blocking } from "./visibility";

/** SQL condition: the `profiles p` row is member number `memberNo` of the tenant (the one spelling of that lookup). */
export const isMemberNo = (projectCode: string, memberNo: string): SQL => sql`p.project_code = ${projectCode} and p.simple_code = ${memberNo}`;

export type MemberByNo = { memberId: string; memberNo: string; deleted: boolean; iBlocked: boolean; theyBlocked: boolean };

/**
 * A member of the tenant by public member number, with the live block state between them and `viewerId` (none
 * without a viewer), in one query: null for an unknown number or another tenant's. The one lookup by member number;
 * callers decide what a deleted account or a block means for them (usually "not found", never a leak).
 */
export async function memberByNo(env: Env, projectCode: string, memberNo: string, viewerId?: string | null, at = Date.now()): Promise<MemberByNo | null> {
  const viewer = viewerId ?? "";
  const row = await getDb(env).get<{ memberId: string; memberNo: string; status: string; iBlocked: number; theyBlocked: number }>(sql`
    select p.member_id as memberId, p.simple_code as memberNo, m.status as status,
      ${blocking(viewer, sql`p.member_id`, at)} as iBlocked, ${blocking(sql`p.member_id`, viewer, at)} as theyBlocked
    from profiles p join members m on m.id = p.member_id
    where ${isMemberNo(projectCode, memberNo)}`);
  if (!row) return null;
  return { memberId: row.memberId, memberNo: row.memberNo, deleted: row.status === "deleted", iBlocked: Boolean(row.iBlocked), theyBlocked: Boolean(row.theyBlocked) };
}

export type TargetMember = { memberId: string; memberNo: string; blockedEitherWay: boolean; iBlocked: boolean };

/**
 * `memberByNo` for actions on another member: unknown codes, other tenants and deleted accounts are 404 (never a
 * leak); the block state comes along for the caller.
 */
export async function findMember(env: Env, projectCode: string, memberNo: string, viewerId: string): Promise<TargetMember> {
  const row = await memberByNo(env, projectCode, memberNo, viewerId);
  if (!row || row.deleted) throw new AppError("notFound");
  return { memberId: row.memberId, memberNo: row.memberNo, iBlocked: row.iBlocked, blockedEitherWay: row.iBlocked || row.theyBlocked };
}

/**
 * The member another action targets: not the caller (400) and, because a block is total and two-way,
 * not someone blocked either way (404 — the blocked member's records do not exist for the other).
 */
export async function visibleTarget(env: Env, projectCode: string, memberNo: string, viewer: { memberId: string }): Promise<TargetMember> {
  const target = await findMember(env, projectCode, memberNo, viewer.memberId);
  if (target.memberId === viewer.memberId) throw new AppError("cannotTargetSelf");
  if (target.blockedEitherWay) throw new AppError("notFound");
  return target;
}
