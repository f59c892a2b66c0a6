import { refreshPresence } from "../chat/presence.service";
import { closeDirectRoom } from "../../lib/end-sessions";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/client";
import { blocks, favourites, followRequests, follows, friendships, guestbookEntries, mutes, profiles, reportHides, reports } from "../../db/schema";
import { reportableMessage } from "../chat/chat.service";
import { mediaKeyFromUrl } from "../../contract/media";
import type { ProfileSummary } from "../../contract/profile-summary";
import {
  BLOCK_IMAGE_CHECK_AT,
  BLOCK_INDICATORS,
  BLOCK_UNQUALIFY_AT,
  SAFETY_DURATION_MS,
  type BlockCount,
  type BlockItem,
  type FollowInfo,
  type FriendStatus,
  type ListItem,
  type MuteItem,
  type ReportKind,
  type Page,
  type SafetyDuration,
} from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { decodeImage } from "../media/codecs";
import { sniffImage } from "../media/image-sniff";
import { isGraphic } from "../media/image-pipeline";
import { notify } from "../notifications/notify";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { friendStatusOf } from "../members/relationship";
import { findMember, visibleTarget } from "../members/members";
import { notBlockedWith } from "../members/visibility";
import { connectionsOpenSql } from "./connections-visibility";
import { watchStatements } from "../members/block-evasion";
import { addMark, weighReports } from "../moderation/moderation.service";
import { approvesFollowers, requestFollow } from "./follow-requests.service";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };
const actorOf = (m: SessionMember) => ({ memberId: m.memberId, memberNo: m.memberNo });
const liveAt = (at: number) => (column: typeof blocks.expiresAt | typeof mutes.expiresAt) => or(isNull(column), gt(column, at));

// ── follows (§7 follow: GET by member code, follow, unfollow) ───────────────────────────────────

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

export async function pageOf<R extends { otherId: string }, T>(
  env: Env,
  member: SessionMember,
  rows: R[],
  pageSize: number,
  cursor: (r: R) => number,
  make: (r: R, profile: ProfileSummary) => T,
): Promise<Page<T>> {
  const slice = rows.slice(0, pageSize);
  const summaries = await profileSummaries(env, member.projectCode, slice.map((r) => r.otherId), await viewerFor(env, member.memberId));
  const items = slice.flatMap((r) => {
    const profile = summaries.get(r.otherId);
    return profile ? [make(r, profile)] : [];
  });
  return { items, next: rows.length > pageSize ? cursor(slice[slice.length - 1]!) : null };
}

// ── friends (§4 friend status: request, accept, reject) ─────────────────────────────────────────

async function friendState(env: Env, a: string, b: string): Promise<FriendStatus> {
  const rows = await getDb(env)
    .select({ requesterId: friendships.requesterId, status: friendships.status })
    .from(friendships)
    .where(or(and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)), and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a))));
  return friendStatusOf(rows.find((r) => r.requesterId === a)?.status ?? null, rows.find((r) => r.requesterId === b)?.status ?? null);
}

export async function friendStatus(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  return { memberNo: target.memberNo, friendStatus: await friendState(env, member.memberId, target.memberId) };
}

/** A request to someone who already asked me is their request accepted (both want it). */
export async function requestFriend(ctx: Ctx, projectCode: string, memberNo: string) {
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
export async function acceptFriend(ctx: Ctx, projectCode: string, memberNo: string) {
  const { env, member } = ctx;
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const updated = await getDb(env)
    .update(friendships)
    .set({ status: "accepted", updatedAt: Date.now() })
    .where(and(eq(friendships.requesterId, target.memberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "requested")))
    .returning({ id: friendships.idFriendship });
  if (updated.length === 0) throw new AppError("noFriendRequest");
  ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "friendAccepted", actor: actorOf(member) }));
  return { memberNo: target.memberNo, friendStatus: "friends" as FriendStatus };
}

/** Only the addressee rejects; the request disappears and either may ask again later. */
export async function rejectFriend(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const deleted = await getDb(env)
    .delete(friendships)
    .where(and(eq(friendships.requesterId, target.memberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "requested")))
    .returning({ id: friendships.idFriendship });
  if (deleted.length === 0) throw new AppError("noFriendRequest");
  return { memberNo: target.memberNo, friendStatus: "none" as FriendStatus };
}

/** Either side ends a friendship, or the requester withdraws a pending request. */
export async function removeFriend(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
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

// ── blocks and mutes (§4 block control; timed ones lift themselves) ─────────────────────────────

const expiryFor = (duration: SafetyDuration, at: number) => {
  const ms = SAFETY_DURATION_MS[duration];
  return ms == null ? null : at + ms;
};

/**
 * Blocks `memberNo`. Total and two-way: the follow, friend and favourite edges between the pair are
 * removed in the same batch. Blocking again changes the duration. Blocking someone who blocked you is
 * allowed (it never reveals their block). Then the §4 community thresholds: at 5 live blocks the target's
 * avatar gets the image graphic check, at 10 the profile is marked unqualified.
 */
export async function block(ctx: Ctx, projectCode: string, memberNo: string, duration: SafetyDuration, alsoNewAccounts = false) {
  const { env, member } = ctx;
  const target = await findMember(env, projectCode, memberNo, member.memberId);
  if (target.memberId === member.memberId) throw new AppError("cannotTargetSelf");
  const db = getDb(env);
  const at = Date.now();
  const expiresAt = expiryFor(duration, at);
  const me = member.memberId;
  const them = target.memberId;
  const pair = (a: SQLiteColumn, b: SQLiteColumn) => or(and(eq(a, me), eq(b, them)), and(eq(a, them), eq(b, me)));
  const [row] = await db.batch([
    db
      .insert(blocks)
      .values({ projectCode, memberId: me, targetMemberId: them, createdAt: at, expiresAt, alsoNewAccounts })
      .onConflictDoUpdate({ target: [blocks.memberId, blocks.targetMemberId], set: { expiresAt, createdAt: at, alsoNewAccounts } })
      .returning({ idBlock: blocks.idBlock }),
    db.delete(follows).where(pair(follows.memberId, follows.targetMemberId)),
    db.delete(followRequests).where(pair(followRequests.memberId, followRequests.targetMemberId)),
    db.delete(favourites).where(pair(favourites.memberId, favourites.targetMemberId)),
    db.delete(friendships).where(pair(friendships.requesterId, friendships.addresseeId)),
    // The last choice counts: on, the blocked account's signal hashes are remembered; off, forgotten (block-evasion.ts).
    ...watchStatements(env, projectCode, me, them, alsoNewAccounts, at),
  ]);
  // Presence both ways: neither sees the other come and go from now on.
  ctx.waitUntil(refreshPresence(env, projectCode, [me, them]));
  // Their one-to-one room closes for both at once (its gate refuses it from now on).
  await closeDirectRoom(env, projectCode, { memberId: me, memberNo: member.memberNo }, target);
  const count = await blockCountOf(env, them, at);
  if (count >= BLOCK_UNQUALIFY_AT) {
    // §4: the 10th block marks the avatar unqualified, as one weighted mark of this blocker (never by count alone).
    const card = await db.select({ idProfile: profiles.idProfile }).from(profiles).where(eq(profiles.memberId, them)).get();
    if (card) await addMark(env, me, { memberId: them, idProfile: card.idProfile });
  } else if (count >= BLOCK_IMAGE_CHECK_AT) {
    ctx.waitUntil(checkAvatar(env, them));
  }
  return { idBlock: row[0]!.idBlock, memberNo: target.memberNo, expiresAt: iso(expiresAt), alsoNewAccounts, count, indicators: Math.min(count, BLOCK_INDICATORS) };
}

async function blockCountOf(env: Env, memberId: string, at = Date.now()) {
  const row = await getDb(env)
    .select({ n: sql<number>`count(*)` })
    .from(blocks)
    .where(and(eq(blocks.targetMemberId, memberId), liveAt(at)(blocks.expiresAt)))
    .get();
  return row?.n ?? 0;
}

/** §4/§5 image graphic check on the stored avatar: over 40% near-black/near-white → not qualified. */
export async function checkAvatar(env: Env, memberId: string) {
  const db = getDb(env);
  const profile = await db.select({ avator: profiles.avator }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  const key = profile?.avator ? mediaKeyFromUrl(profile.avator) : null;
  if (!key) return;
  const object = await env.MEDIA.get(key);
  if (!object) return;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const type = sniffImage(bytes)?.type;
  if (!type) return;
  const image = await decodeImage(bytes, type);
  if (isGraphic(image.data)) await db.update(profiles).set({ qualify: false, updatedAt: Date.now() }).where(eq(profiles.memberId, memberId));
}

export async function blockList(env: Env, member: SessionMember, pageSize: number, before?: number): Promise<Page<BlockItem>> {
  const at = Date.now();
  const rows = await getDb(env)
    .select({ id: blocks.idBlock, otherId: blocks.targetMemberId, createdAt: blocks.createdAt, expiresAt: blocks.expiresAt, alsoNewAccounts: blocks.alsoNewAccounts })
    .from(blocks)
    .where(
      and(
        eq(blocks.memberId, member.memberId),
        eq(blocks.projectCode, member.projectCode),
        // Blocks made by block evasion are never listed (block-evasion.ts).
        eq(blocks.madeByEvasion, false),
        liveAt(at)(blocks.expiresAt),
        before ? lt(blocks.idBlock, before) : undefined,
      ),
    )
    .orderBy(desc(blocks.idBlock))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.id, (r, profile) => ({ idBlock: r.id, profile, dateAdd: iso(r.createdAt)!, expiresAt: iso(r.expiresAt), alsoNewAccounts: r.alsoNewAccounts }));
}

/** Only the blocker lifts a block; anyone else's block id is 404. */
export async function unblock(env: Env, member: SessionMember, idBlock: number) {
  const deleted = await getDb(env)
    .delete(blocks)
    .where(and(eq(blocks.idBlock, idBlock), eq(blocks.memberId, member.memberId), eq(blocks.projectCode, member.projectCode)))
    .returning({ idBlock: blocks.idBlock, targetMemberId: blocks.targetMemberId });
  if (deleted.length === 0) throw new AppError("notFound");
  // A lifted block remembers nothing of the blocked account's signals.
  await watchStatements(env, member.projectCode, member.memberId, deleted[0]!.targetMemberId, false, Date.now())[0].run();
  await refreshPresence(env, member.projectCode, [member.memberId, deleted[0]!.targetMemberId]);
  return { idBlock, unblocked: true };
}

export async function myBlockCount(env: Env, member: SessionMember) {
  const row = await getDb(env)
    .select({ n: sql<number>`count(*)` })
    .from(blocks)
    .where(and(eq(blocks.memberId, member.memberId), liveAt(Date.now())(blocks.expiresAt)))
    .get();
  return { count: row?.n ?? 0 };
}

/** §4: the 10 indicators of a member's block control show how many members block them. */
export async function blockCountFor(env: Env, projectCode: string, member: SessionMember, memberNo: string): Promise<BlockCount> {
  const target = await findMember(env, projectCode, memberNo, member.memberId);
  // The blocker still sees the control of someone they block; someone blocked by the target does not.
  if (target.blockedEitherWay && !target.iBlocked) throw new AppError("notFound");
  const count = await blockCountOf(env, target.memberId);
  return { memberNo: target.memberNo, count, indicators: Math.min(count, BLOCK_INDICATORS) };
}

/** A mute is one-way and silent: the muted member's content and notifications disappear for the muter only. */
export async function mute(env: Env, projectCode: string, member: SessionMember, memberNo: string, duration: SafetyDuration) {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const at = Date.now();
  const expiresAt = expiryFor(duration, at);
  const row = await getDb(env)
    .insert(mutes)
    .values({ projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: at, expiresAt })
    .onConflictDoUpdate({ target: [mutes.memberId, mutes.targetMemberId], set: { expiresAt, createdAt: at } })
    .returning({ idMute: mutes.idMute })
    .get();
  return { idMute: row.idMute, memberNo: target.memberNo, expiresAt: iso(expiresAt) };
}

export async function unmute(env: Env, projectCode: string, member: SessionMember, memberNo: string) {
  const target = await findMember(env, projectCode, memberNo, member.memberId);
  await getDb(env).delete(mutes).where(and(eq(mutes.memberId, member.memberId), eq(mutes.targetMemberId, target.memberId)));
  return { memberNo: target.memberNo, muted: false };
}

export async function muteList(env: Env, member: SessionMember, pageSize: number, before?: number): Promise<Page<MuteItem>> {
  const rows = await getDb(env)
    .select({ id: mutes.idMute, otherId: mutes.targetMemberId, createdAt: mutes.createdAt, expiresAt: mutes.expiresAt })
    .from(mutes)
    .where(and(eq(mutes.memberId, member.memberId), eq(mutes.projectCode, member.projectCode), liveAt(Date.now())(mutes.expiresAt), before ? lt(mutes.idMute, before) : undefined))
    .orderBy(desc(mutes.idMute))
    .limit(pageSize + 1);
  return pageOf(env, member, rows, pageSize, (r) => r.id, (r, profile) => ({ idMute: r.id, profile, dateAdd: iso(r.createdAt)!, expiresAt: iso(r.expiresAt) }));
}

// ── reports (§8: reports go to the moderation queue) ────────────────────────────────────────────

/**
 * One report per reporter and target, open in the tenant's moderation queue until an operator decides it; a new
 * report after a decision opens it again. Numbers alone never suspend anyone: `weighReports` may pause the
 * target's posting for a while, weighing only established reporters (README Decisions "Moderation").
 * A member who blocked you cannot be found.
 */
export async function report(
  env: Env,
  projectCode: string,
  member: SessionMember,
  memberNo: string,
  reason: string,
  item: { kind: ReportKind; itemId: number } | null = null,
) {
  const target = await findMember(env, projectCode, memberNo, member.memberId);
  if (target.memberId === member.memberId) throw new AppError("cannotTargetSelf");
  if (target.blockedEitherWay && !target.iBlocked) throw new AppError("notFound");
  // An item must be the target's and one the reporter can see now; anything else is "not found".
  if (item && (await reportedItemAuthor(env, projectCode, member, item)) !== target.memberId) throw new AppError("notFound");
  const at = Date.now();
  const written = await getDb(env)
    .insert(reports)
    .values({ projectCode, memberId: member.memberId, targetMemberId: target.memberId, reason, createdAt: at })
    .onConflictDoUpdate({
      target: [reports.memberId, reports.targetMemberId],
      set: { reason, createdAt: at, status: "open", decidedBy: null, decidedAt: null, outcome: null },
      setWhere: sql`${reports.status} <> 'open'`,
    })
    .returning({ id: reports.idReport });
  if (item) {
    // One item reported: only it disappears, for the reporter only (README Decisions "Block evasion and per-item
    // reports"); the member's other content stays. Others still see it until an operator decides.
    await getDb(env)
      .insert(reportHides)
      .values({ projectCode, memberId: member.memberId, kind: item.kind, itemId: item.itemId, targetMemberId: target.memberId, createdAt: at })
      .onConflictDoNothing()
      .run();
    if (written.length) await weighReports(env, projectCode, target.memberId, at);
    return { memberNo: target.memberNo, reported: true, hidden: true, kind: item.kind, itemId: item.itemId };
  }
  // Reporting hides at once, for the reporter only (README Decisions "Safety controls"): the report is also the
  // reporter's own lasting mute, so every surface that honours mutes (chat pages and kept pages, threads, socket
  // frames, guestbook, notifications, home) leaves the reported member's content out for them. Others still see it
  // until an operator decides; the reporter may unmute it from their mute list.
  await getDb(env)
    .insert(mutes)
    .values({ projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: at, expiresAt: null })
    .onConflictDoUpdate({ target: [mutes.memberId, mutes.targetMemberId], set: { expiresAt: null } })
    .run();
  // A repeat of a report still open changes nothing, so it weighs nothing again (README "Moderation instead of mob rule").
  if (written.length) await weighReports(env, projectCode, target.memberId, at);
  return { memberNo: target.memberNo, reported: true, hidden: true };
}

/** The author of a reported item the reporter can see (chat: reportableMessage; guestbook: an entry in their own guestbook). */
async function reportedItemAuthor(env: Env, projectCode: string, member: SessionMember, item: { kind: ReportKind; itemId: number }): Promise<string> {
  if (item.kind === "chat") return (await reportableMessage(env, projectCode, item.itemId, member)).memberId;
  const row = await getDb(env)
    .select({ authorId: guestbookEntries.authorMemberId })
    .from(guestbookEntries)
    .where(and(eq(guestbookEntries.idGuestbook, item.itemId), eq(guestbookEntries.projectCode, projectCode), eq(guestbookEntries.ownerMemberId, member.memberId)))
    .get();
  if (!row) throw new AppError("notFound");
  return row.authorId;
}
