// The social graph's edges: follows, friends and favourites (§4 follow heart, friend status; §7 follow, friends, favourites).
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { favourites, followRequests, follows, friendships } from "../../db/schema";
import type { FollowInfo, FriendAnswer, FriendStatus, ListItem, Page } from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import { friendStatusOf } from "../members/relationship";
import { visibleTarget } from "../members/members";
import { notBlockedWith } from "../members/visibility";
import { approvesFollowers, requestFollow } from "./follow-requests.service";
import { followInfo } from "./follow-info";
import { pageOf } from "./member-page";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };
const actorOf = (m: SessionMember) => ({ memberId: m.memberId, memberNo: m.memberNo });

// ── follows (§7 follow: GET by member code, follow, unfollow) ───────────────────────────────────

export async function follow(ctx: Ctx, projectCode: string, memberNo: string): Promise<FollowInfo> {
  const { env, member } = ctx;
  const target = await visibleTarget(env, projectCode, memberNo, member);
  // README Decisions "Approve followers": a member who approves followers is asked, not followed (nor told "followed").
  if (await approvesFollowers(env, target.memberId)) {
    await requestFollow(ctx, projectCode, target);
    return followInfo(env, projectCode, member, memberNo);
  }
  const inserted = await getDb(env)
    .insert(follows)
    .values({ projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: Date.now() })
    .onConflictDoNothing()
    .returning({ idFollow: follows.idFollow });
  if (inserted.length > 0) ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "follow", actor: actorOf(member), oncePerDay: true }));
  return followInfo(env, projectCode, member, memberNo);
}

export async function unfollow(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FollowInfo> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const db = getDb(env);
  // Unfollowing also withdraws a pending request: the heart's second tap undoes whichever the first one made.
  await db.batch([
    db.delete(follows).where(and(eq(follows.memberId, member.memberId), eq(follows.targetMemberId, target.memberId))),
    db.delete(followRequests).where(and(eq(followRequests.memberId, member.memberId), eq(followRequests.targetMemberId, target.memberId))),
  ]);
  return followInfo(env, projectCode, member, memberNo);
}

/**
 * Soft block (README Decisions "Safety controls"): the member removes someone who follows them. Only the follow row
 * goes, silently: no notification, no block, and the removed member may follow again. Not a follower (or not
 * visible: another tenant, a block either way) is 404, so the route confirms nothing about anyone else.
 */
export async function removeFollower(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FollowInfo> {
  const follower = await visibleTarget(env, projectCode, memberNo, member);
  const removed = await getDb(env)
    .delete(follows)
    .where(and(eq(follows.memberId, follower.memberId), eq(follows.targetMemberId, member.memberId), eq(follows.projectCode, projectCode)))
    .returning({ idFollow: follows.idFollow });
  if (!removed.length) throw new AppError("notFound");
  return followInfo(env, projectCode, member, memberNo);
}

/** My following / followers, newest first, without anyone blocked either way. Cursor = id of the edge. */
export async function followList(env: Env, member: SessionMember, direction: "following" | "followers", pageSize: number, before?: number): Promise<Page<ListItem & { idFollow: number }>> {
  const db = getDb(env);
  const mine = direction === "following" ? follows.memberId : follows.targetMemberId;
  const other = direction === "following" ? follows.targetMemberId : follows.memberId;
  const rows = await db
    .select({ idFollow: follows.idFollow, otherId: other, createdAt: follows.createdAt })
    .from(follows)
    .where(and(eq(mine, member.memberId), eq(follows.projectCode, member.projectCode), before ? lt(follows.idFollow, before) : undefined, notBlockedWith(member.memberId, other)))
    .orderBy(desc(follows.idFollow))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.idFollow, (r, profile) => ({ idFollow: r.idFollow, profile, dateAdd: iso(r.createdAt)! }));
}

// ── friends (§4 friend status: request, accept, reject) ─────────────────────────────────────────

async function friendState(env: Env, a: string, b: string): Promise<FriendStatus> {
  const rows = await getDb(env)
    .select({ requesterId: friendships.requesterId, status: friendships.status })
    .from(friendships)
    .where(or(and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)), and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a))));
  return friendStatusOf(rows.find((r) => r.requesterId === a)?.status ?? null, rows.find((r) => r.requesterId === b)?.status ?? null);
}

export async function friendStatus(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FriendAnswer> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  return { memberNo: target.memberNo, friendStatus: await friendState(env, member.memberId, target.memberId) };
}

/** A request to someone who already asked me is their request accepted (both want it). */
export async function requestFriend(ctx: Ctx, projectCode: string, memberNo: string): Promise<FriendAnswer> {
  const { env, member } = ctx;
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const state = await friendState(env, member.memberId, target.memberId);
  if (state === "incoming") return acceptFriend(ctx, projectCode, memberNo);
  if (state === "none") {
    const at = Date.now();
    await getDb(env)
      .insert(friendships)
      .values({ projectCode, requesterId: member.memberId, addresseeId: target.memberId, status: "requested", createdAt: at, updatedAt: at })
      .onConflictDoNothing();
    ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "friendRequest", actor: actorOf(member), oncePerDay: true }));
  }
  return { memberNo: target.memberNo, friendStatus: await friendState(env, member.memberId, target.memberId) };
}

/** Only the addressee accepts: the pending row must be target → me. */
export async function acceptFriend(ctx: Ctx, projectCode: string, memberNo: string): Promise<FriendAnswer> {
  const { env, member } = ctx;
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const updated = await getDb(env)
    .update(friendships)
    .set({ status: "accepted", updatedAt: Date.now() })
    .where(and(eq(friendships.requesterId, target.memberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "requested")))
    .returning({ id: friendships.idFriendship });
  if (updated.length === 0) throw new AppError("noFriendRequest");
  ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "friendAccepted", actor: actorOf(member) }));
  return { memberNo: target.memberNo, friendStatus: "friends" };
}

/** Only the addressee rejects; the request disappears and either may ask again later. */
export async function rejectFriend(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FriendAnswer> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const deleted = await getDb(env)
    .delete(friendships)
    .where(and(eq(friendships.requesterId, target.memberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "requested")))
    .returning({ id: friendships.idFriendship });
  if (deleted.length === 0) throw new AppError("noFriendRequest");
  return { memberNo: target.memberNo, friendStatus: "none" };
}

/** Either side ends a friendship, or the requester withdraws a pending request. */
export async function removeFriend(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<FriendAnswer> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env)
    .delete(friendships)
    .where(
      or(
        and(eq(friendships.requesterId, member.memberId), eq(friendships.addresseeId, target.memberId)),
        and(eq(friendships.requesterId, target.memberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "accepted")),
      ),
    );
  return { memberNo: target.memberNo, friendStatus: await friendState(env, member.memberId, target.memberId) };
}

export async function friendList(env: Env, member: SessionMember, status: "friends" | "incoming" | "requested", pageSize: number, before?: number) {
  const me = member.memberId;
  const where =
    status === "incoming"
      ? and(eq(friendships.addresseeId, me), eq(friendships.status, "requested"))
      : status === "requested"
        ? and(eq(friendships.requesterId, me), eq(friendships.status, "requested"))
        : and(or(eq(friendships.requesterId, me), eq(friendships.addresseeId, me)), eq(friendships.status, "accepted"));
  const other = sql<string>`case when ${friendships.requesterId} = ${me} then ${friendships.addresseeId} else ${friendships.requesterId} end`;
  const rows = await getDb(env)
    .select({ id: friendships.idFriendship, otherId: other, updatedAt: friendships.updatedAt })
    .from(friendships)
    .where(and(where, eq(friendships.projectCode, member.projectCode), before ? lt(friendships.idFriendship, before) : undefined, notBlockedWith(me, other)))
    .orderBy(desc(friendships.idFriendship))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.id, (r, profile) => ({ profile, dateAdd: iso(r.updatedAt)! }));
}

// ── favourites ──────────────────────────────────────────────────────────────────────────────────

export async function addFavourite(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env).insert(favourites).values({ projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: Date.now() }).onConflictDoNothing();
  return { memberNo: target.memberNo, favourite: true };
}

export async function removeFavourite(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env).delete(favourites).where(and(eq(favourites.memberId, member.memberId), eq(favourites.targetMemberId, target.memberId)));
  return { memberNo: target.memberNo, favourite: false };
}

export async function favouriteList(env: Env, member: SessionMember, pageSize: number, before?: number) {
  const rows = await getDb(env)
    .select({ id: favourites.idFavourite, otherId: favourites.targetMemberId, createdAt: favourites.createdAt })
    .from(favourites)
    .where(and(eq(favourites.memberId, member.memberId), eq(favourites.projectCode, member.projectCode), before ? lt(favourites.idFavourite, before) : undefined, notBlockedWith(member.memberId, favourites.targetMemberId)))
    .orderBy(desc(favourites.idFavourite))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.id, (r, profile) => ({ idFavourite: r.id, profile, dateAdd: iso(r.createdAt)! }));
}
