import { and, desc, eq, lt, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { followRequests, follows, profiles } from "../../db/schema";
import type { FollowApproval, FollowInfo, FollowRequestItem, Page } from "../../contract/social";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import type { SessionMember } from "../../lib/session-member";
import { followInfo } from "./follow-info";
import { pageOf } from "./member-page";
import { visibleTarget, type TargetMember } from "../members/members";
import { notBlockedWith } from "../members/visibility";

/**
 * Approve followers (README Decisions "Approve followers"): while a member's `approveFollowers` is on, a follow is a
 * pending request the member accepts (it becomes a `follows` row) or declines (it goes, silently) from the Social tab;
 * the requester may withdraw it. Only the member lists their requests; a block either way deletes the pair's request
 * (blocks.service `block`), and another tenant's or a blocked member is "not found" on every route here.
 */

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };

export async function approvesFollowers(env: Env, memberId: string): Promise<boolean> {
  const row = await getDb(env).select({ on: profiles.approveFollowers }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  return Boolean(row?.on);
}

/**
 * The follow of a member who approves followers: a request (no follow row, no "followed" notice), unless the
 * requester already follows them. The target hears of a new request once a day at most (a request/cancel loop cannot
 * re-notify, as for follows).
 */
export async function requestFollow(ctx: Ctx, projectCode: string, target: TargetMember): Promise<void> {
  const { env, member } = ctx;
  const db = getDb(env);
  const inserted = await db
    .insert(followRequests)
    .select(
      db
        .select({
          idFollowRequest: sql<number>`null`.as("id_follow_request"),
          projectCode: sql<string>`${projectCode}`.as("project_code"),
          memberId: sql<string>`${member.memberId}`.as("member_id"),
          targetMemberId: sql<string>`${target.memberId}`.as("target_member_id"),
          createdAt: sql<number>`${Date.now()}`.as("created_at"),
        })
        .from(sql`(select 1)`)
        .where(sql`not exists (select 1 from follows where member_id = ${member.memberId} and target_member_id = ${target.memberId})`),
    )
    .onConflictDoNothing()
    .returning({ idFollowRequest: followRequests.idFollowRequest });
  if (inserted.length > 0)
    ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "followRequest", actor: { memberId: member.memberId, memberNo: member.memberNo }, oncePerDay: true }));
}

/** The member's own pending requests, newest first, without anyone blocked either way. Cursor = id of the request. */
export async function listFollowRequests(env: Env, member: SessionMember, pageSize: number, before?: number): Promise<Page<FollowRequestItem>> {
  const rows = await getDb(env)
    .select({ id: followRequests.idFollowRequest, otherId: followRequests.memberId, createdAt: followRequests.createdAt })
    .from(followRequests)
    .where(
      and(
        eq(followRequests.targetMemberId, member.memberId),
        eq(followRequests.projectCode, member.projectCode),
        before ? lt(followRequests.idFollowRequest, before) : undefined,
        notBlockedWith(member.memberId, followRequests.memberId),
      ),
    )
    .orderBy(desc(followRequests.idFollowRequest))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.id, (r, profile) => ({ idFollowRequest: r.id, profile, dateAdd: iso(r.createdAt)! }));
}

const requestOf = (requesterId: string, targetId: string) => and(eq(followRequests.memberId, requesterId), eq(followRequests.targetMemberId, targetId));

/** The member accepts `memberNo`'s request: one batch turns it into a follow. No request → 404. */
export async function acceptFollowRequest(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FollowInfo> {
  const requester = await visibleTarget(env, projectCode, memberNo, member);
  const db = getDb(env);
  const [, deleted] = await db.batch([
    db
      .insert(follows)
      .select(
        db
          .select({
            idFollow: sql<number>`null`.as("id_follow"),
            projectCode: followRequests.projectCode,
            memberId: followRequests.memberId,
            targetMemberId: followRequests.targetMemberId,
            createdAt: sql<number>`${Date.now()}`.as("created_at"),
          })
          .from(followRequests)
          .where(and(requestOf(requester.memberId, member.memberId), eq(followRequests.projectCode, projectCode))),
      )
      .onConflictDoNothing(),
    db.delete(followRequests).where(and(requestOf(requester.memberId, member.memberId), eq(followRequests.projectCode, projectCode))).returning({ id: followRequests.idFollowRequest }),
  ]);
  if (deleted.length === 0) throw new AppError("notFound");
  return followInfo(env, projectCode, member, memberNo);
}

/** The member declines `memberNo`'s request: it goes, and the requester is told nothing (they may ask again). */
export async function declineFollowRequest(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FollowInfo> {
  const requester = await visibleTarget(env, projectCode, memberNo, member);
  const deleted = await getDb(env)
    .delete(followRequests)
    .where(and(requestOf(requester.memberId, member.memberId), eq(followRequests.projectCode, projectCode)))
    .returning({ id: followRequests.idFollowRequest });
  if (deleted.length === 0) throw new AppError("notFound");
  return followInfo(env, projectCode, member, memberNo);
}

/** The requester withdraws their pending request to `memberNo`. No request → 404. */
export async function cancelFollowRequest(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FollowInfo> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const deleted = await getDb(env)
    .delete(followRequests)
    .where(and(requestOf(member.memberId, target.memberId), eq(followRequests.projectCode, projectCode)))
    .returning({ id: followRequests.idFollowRequest });
  if (deleted.length === 0) throw new AppError("notFound");
  return followInfo(env, projectCode, member, memberNo);
}

export async function getFollowApproval(env: Env, member: SessionMember): Promise<FollowApproval> {
  return { approveFollowers: await approvesFollowers(env, member.memberId) };
}

/**
 * Turning approval off leaves pending requests for the member to answer (nobody is let in who was not accepted);
 * new follows go straight through again. Followers from before approval was turned on stay followers.
 */
export async function putFollowApproval(env: Env, member: SessionMember, body: FollowApproval): Promise<FollowApproval> {
  await getDb(env).update(profiles).set({ approveFollowers: body.approveFollowers, updatedAt: Date.now() }).where(eq(profiles.memberId, member.memberId));
  return getFollowApproval(env, member);
}
