import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { isDeletedCode } from "../../lib/ids";
import type { Relationship } from "./relationship";
import { avatarOf, type SummaryRow, type Viewer } from "./profile-summary";
import { isMemberNo } from "./members";
import { blockedEitherWay } from "./visibility";

/**
 * Who may see what of one member (README Decisions "Closed profiles and what a visitor sees"; SECURITY.md "What a
 * visitor sees"). One home for the rule: the profile view and page, and every route that serves one member's content
 * by number (photos, albums, footprints, activity, preferences, sub-members, chat messages on the profile), ask here.
 *
 * §4 Closed profile: a `closed` member's content is for the owner, their accepted friends and the members the owner
 * follows. Everyone else (visitors, other members, other tenants never get this far) gets the stub.
 */
export function mayOpenProfile(target: { memberId: string; closed: boolean }, viewerId: string | null, relationship: Relationship): boolean {
  if (!target.closed || viewerId === target.memberId) return true;
  // `followedBy`: the owner follows the viewer (the owner chose them), never the viewer's own follow.
  return Boolean(viewerId) && (relationship.friendStatus === "friends" || relationship.followedBy);
}

/** The stub of a closed profile: nickname, the avatar as `avatarOf` gives it (a rendition for visitors), `closed`. */
export function closedStub(row: SummaryRow, viewer: Viewer, relationship: Relationship | null) {
  const { avator, blur } = avatarOf(row, viewer);
  // The viewer's own edges (follow, friend request, block), so a member can still ask for friendship: nothing of the owner.
  return { simpleCode: row.simpleCode, nickname: row.nickname, avator, blur, closed: true as const, stub: true as const, relationship };
}
export type ClosedStub = ReturnType<typeof closedStub>;

/**
 * For routes serving one member's content by number: throws "not found" when the member is missing in the tenant,
 * deleted, or blocked either way with the viewer (as the routes always did); answers true when the member is closed
 * to this viewer, so the route answers an empty list. One query.
 */
export async function closedTo(env: Env, projectCode: string, memberNo: string, viewerId: string | null, at = Date.now()): Promise<boolean> {
  const viewer = viewerId ?? "";
  const row = await getDb(env).get<{ memberId: string; simpleCode: string; closed: number; blocked: number; friend: number; followed: number }>(sql`
    select p.member_id as memberId, p.simple_code as simpleCode, p.closed as closed,
      ${blockedEitherWay(viewer, sql`p.member_id`, at)} as blocked,
      exists (select 1 from friendships f where f.status = 'accepted' and ((f.requester_id = ${viewer} and f.addressee_id = p.member_id) or
        (f.requester_id = p.member_id and f.addressee_id = ${viewer}))) as friend,
      exists (select 1 from follows w where w.member_id = p.member_id and w.target_member_id = ${viewer}) as followed
    from profiles p where ${isMemberNo(projectCode, memberNo)} limit 1`);
  if (!row || isDeletedCode(row.simpleCode) || (viewerId && viewerId !== row.memberId && row.blocked)) throw new AppError("notFound");
  return !mayOpenProfile(
    { memberId: row.memberId, closed: Boolean(row.closed) },
    viewerId,
    { friendStatus: row.friend ? "friends" : "none", followedBy: Boolean(row.followed) } as Relationship,
  );
}

/**
 * The same rule as `mayOpenProfile`, in SQL, for lists that name members by what they hold (the members of one
 * preference): a closed member is listed only to those they let in, or their preferences could be read back by
 * walking the lists.
 */
export function openToViewerSql(viewerId: string | null, memberId: SQLiteColumn, closed: SQLiteColumn): SQL {
  const viewer = viewerId ?? "";
  return sql`(${closed} = 0 or ${memberId} = ${viewer}
    or exists (select 1 from friendships f where f.status = 'accepted' and ((f.requester_id = ${viewer} and f.addressee_id = ${memberId}) or
      (f.requester_id = ${memberId} and f.addressee_id = ${viewer})))
    or exists (select 1 from follows w where w.member_id = ${memberId} and w.target_member_id = ${viewer}))`;
}

/** §6 "public data" for a visitor: no footprints (who visited whom). Members see a profile's footprints. */
export const footprintsFor = <T>(viewerId: string | null, rows: T[]): T[] => (viewerId ? rows : []);


/**
 * README Decisions "Approve followers": a member who approves followers is, to every other member who does not follow
 * them (accepted), exactly what a visitor sees of them: the visitor's shape of the profile and page (no cell, page
 * views, match rate or footprints; avatar and photos as renditions), and a closed profile's stub as a visitor gets it.
 * The viewer keeps only their own edges (`relationship`, e.g. a pending `followRequested`).
 */
export function seesAsVisitor(target: { memberId: string; approveFollowers: boolean }, viewerId: string | null, relationship: { following: boolean }): boolean {
  return Boolean(viewerId) && viewerId !== target.memberId && target.approveFollowers && !relationship.following;
}

/** `seesAsVisitor` for routes serving one member's content by number (one query; unknown members answer false). */
export async function seenAsVisitor(env: Env, projectCode: string, memberNo: string, viewerId: string | null): Promise<boolean> {
  if (!viewerId) return false;
  const row = await getDb(env).get<{ memberId: string; approveFollowers: number; following: number }>(sql`
    select p.member_id as memberId, p.approve_followers as approveFollowers,
      exists (select 1 from follows w where w.member_id = ${viewerId} and w.target_member_id = p.member_id) as following
    from profiles p where ${isMemberNo(projectCode, memberNo)} limit 1`);
  return Boolean(row) && seesAsVisitor({ memberId: row!.memberId, approveFollowers: Boolean(row!.approveFollowers) }, viewerId, { following: Boolean(row!.following) });
}

/** The same rule in SQL, for lists that would show a member's cell (nearby): false where the viewer sees them as a visitor. */
export function notVisitorToSql(viewerId: string, memberId: SQLiteColumn | SQL, approveFollowers: SQLiteColumn | SQL): SQL {
  return sql`(${approveFollowers} = 0 or ${memberId} = ${viewerId} or exists (select 1 from follows w where w.member_id = ${viewerId} and w.target_member_id = ${memberId}))`;
}
