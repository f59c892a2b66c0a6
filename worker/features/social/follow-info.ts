// The viewer's follow state with one member and its counts, read by follows and follow requests alike (§7 follow GET, README Decisions "Who sees my connections").
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import type { FollowInfo } from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { visibleTarget } from "../members/members";
import { notBlockedWith } from "../members/visibility";
import { connectionsOpenSql } from "../members/connections-visibility";

export async function followInfo(env: Env, projectCode: string, viewer: SessionMember, memberNo: string): Promise<FollowInfo> {
  const target = await visibleTarget(env, projectCode, memberNo, viewer);
  const at = Date.now();
  const row = await getDb(env).get<{ following: number; requested: number; followedBy: number; followers: number; followingCount: number; open: number }>(sql`
    select
      exists (select 1 from follows where member_id = ${viewer.memberId} and target_member_id = ${target.memberId}) as following,
      exists (select 1 from follow_requests where member_id = ${viewer.memberId} and target_member_id = ${target.memberId}) as requested,
      exists (select 1 from follows where member_id = ${target.memberId} and target_member_id = ${viewer.memberId}) as followedBy,
      (select count(*) from follows f where f.target_member_id = ${target.memberId} and ${notBlockedWith(viewer.memberId, sql`f.member_id`, at)}) as followers,
      (select count(*) from follows f where f.member_id = ${target.memberId} and ${notBlockedWith(viewer.memberId, sql`f.target_member_id`, at)}) as followingCount,
      ${connectionsOpenSql(sql`${target.memberId}`, viewer.memberId)} as open`);
  // README Decisions "Who sees my connections": the counts are the target's to show; the viewer's own edges stay.
  const edges = {
    memberNo: target.memberNo,
    following: Boolean(row?.following),
    followedBy: Boolean(row?.followedBy),
    followStatus: row?.following ? ("following" as const) : row?.requested ? ("requested" as const) : ("none" as const),
  };
  if (!row?.open) return { ...edges, followers: null, followingCount: null, connectionsHidden: true };
  return { ...edges, followers: row.followers ?? 0, followingCount: row.followingCount ?? 0 };
}
