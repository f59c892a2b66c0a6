// Blocks and mutes: the block with its §4 community thresholds, lifting, counts and lists; the one-way silent mute (§4 block control, §7 blocks).
import { refreshPresence } from "../chat/presence.service";
import { closeDirectRoom } from "../../lib/end-sessions";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/client";
import { blocks, favourites, followRequests, follows, friendships, mutes, profiles } from "../../db/schema";
import { mediaKeyFromUrl } from "../../contract/media";
import {
  BLOCK_IMAGE_CHECK_AT,
  BLOCK_INDICATORS,
  BLOCK_UNQUALIFY_AT,
  SAFETY_DURATION_MS,
  type BlockCount,
  type BlockCreated,
  type BlockItem,
  type MuteCreated,
  type MuteItem,
  type Page,
  type SafetyDuration,
} from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { decodeImage } from "../images/codecs";
import { sniffImage } from "../images/image-sniff";
import { isGraphic } from "../images/image-pipeline";
import { findMember, visibleTarget } from "../members/members";
import { watchStatements } from "../members/block-evasion";
import { addMark } from "../moderation/moderation.service";
import { pageOf } from "./member-page";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };
const liveAt = (at: number) => (column: typeof blocks.expiresAt | typeof mutes.expiresAt) => or(isNull(column), gt(column, at));

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
export async function block(ctx: Ctx, projectCode: string, memberNo: string, duration: SafetyDuration, alsoNewAccounts = false): Promise<BlockCreated> {
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
export async function mute(env: Env, projectCode: string, member: SessionMember, memberNo: string, duration: SafetyDuration): Promise<MuteCreated> {
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
