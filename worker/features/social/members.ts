import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";

export type TargetMember = { memberId: string; memberNo: string; blockedEitherWay: boolean; iBlocked: boolean };

/**
 * A member of the tenant by public member code, with the live block state between them and the viewer,
 * in one query. Unknown codes, other tenants and deleted accounts are 404 (never a leak).
 */
export async function findMember(env: Env, projectCode: string, memberNo: string, viewerId: string): Promise<TargetMember> {
  const at = Date.now();
  const row = await getDb(env).get<{ memberId: string; memberNo: string; status: string; iBlocked: number; theyBlocked: number }>(sql`
    select p.member_id as memberId, p.simple_code as memberNo, m.status as status,
      exists (select 1 from blocks b where b.member_id = ${viewerId} and b.target_member_id = p.member_id and (b.expires_at is null or b.expires_at > ${at})) as iBlocked,
      exists (select 1 from blocks b where b.member_id = p.member_id and b.target_member_id = ${viewerId} and (b.expires_at is null or b.expires_at > ${at})) as theyBlocked
    from profiles p join members m on m.id = p.member_id
    where p.project_code = ${projectCode} and p.simple_code = ${memberNo}`);
  if (!row || row.status === "deleted") throw new AppError("notFound");
  return { memberId: row.memberId, memberNo: row.memberNo, iBlocked: Boolean(row.iBlocked), blockedEitherWay: Boolean(row.iBlocked || row.theyBlocked) };
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
