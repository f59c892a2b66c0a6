// The hierarchy: a member's sub-member tree and masters above, and its history (§3 Submember {profile, subNodes}, Hierarchy history; §7 hierarchy).
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { iso } from "../../lib/time";
import type { Hierarchy, HierarchyEvent, HierarchyHistoryItem, SubmemberNode } from "../../contract/market";
import type { ProfileSummary } from "../../contract/profile-summary";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { notBlockedWith } from "../members/visibility";
import { connectionsOpenSql } from "../members/connections-visibility";
import { visibleMemberByNo } from "./market-members";

/** Trees are shown this many levels deep (cycles are impossible, this only bounds the page). */
const TREE_DEPTH = 6;
const TREE_NODES = 300;

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
