import { and, desc, eq, gte, inArray, ne } from "drizzle-orm";
import { getDb } from "../../db/client";
import { flamePasses, profiles, verificationRequests } from "../../db/schema";
import type { BasementInfo, FlameApproved, FlameInfo, FlameRequests, Verification } from "../../contract/social";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { isBlockedBetween, notBlockedWith, notMutedBy } from "../members/visibility";
import { visibleTarget } from "../members/members";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };

export async function currentHolder(env: Env, projectCode: string) {
  return getDb(env)
    .select({ holderMemberId: flamePasses.holderMemberId, createdAt: flamePasses.createdAt })
    .from(flamePasses)
    .where(eq(flamePasses.projectCode, projectCode))
    .orderBy(desc(flamePasses.idFlamePass))
    .limit(1)
    .get();
}

/** §7 flame GET last: the tenant's current holder (hidden when the viewer and holder are blocked either way). */
export async function lastFlame(env: Env, projectCode: string, member: SessionMember): Promise<FlameInfo> {
  const holder = await currentHolder(env, projectCode);
  if (!holder || (holder.holderMemberId !== member.memberId && (await isBlockedBetween(env, member.memberId, holder.holderMemberId)))) {
    return { memberNo: null, profile: null, since: null, mine: false };
  }
  const profile = (await profileSummaries(env, projectCode, [holder.holderMemberId], await viewerFor(env, member.memberId))).get(holder.holderMemberId) ?? null;
  return { memberNo: profile?.simpleCode ?? null, profile, since: iso(holder.createdAt), mine: holder.holderMemberId === member.memberId };
}

async function requireHolder(env: Env, projectCode: string, member: SessionMember) {
  const holder = await currentHolder(env, projectCode);
  if (holder?.holderMemberId !== member.memberId) throw new AppError("notFlameHolder");
}

/**
 * §4/§6 flame delivery: only the holder passes it on. Afterwards the giver's flame state is cleared —
 * they are no longer the holder and can no longer approve members.
 */
export async function deliverFlame(ctx: Ctx, projectCode: string, memberNo: string): Promise<FlameInfo> {
  const { env, member } = ctx;
  await requireHolder(env, projectCode, member);
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env).insert(flamePasses).values({ projectCode, holderMemberId: target.memberId, fromMemberId: member.memberId, createdAt: Date.now() });
  ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "flame", actor: { memberId: member.memberId, memberNo: member.memberNo }, params: { action: "received" } }));
  return lastFlame(env, projectCode, member);
}

/** §6: the flame holder may approve members as verified (kycStatus 1). An AI-room member (9) keeps 9. */
export async function approveVerified(ctx: Ctx, projectCode: string, memberNo: string): Promise<FlameApproved> {
  const { env, member } = ctx;
  await requireHolder(env, projectCode, member);
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env)
    .update(profiles)
    .set({ kycStatus: 1, updatedAt: Date.now() })
    .where(and(eq(profiles.memberId, target.memberId), eq(profiles.projectCode, projectCode), eq(profiles.kycStatus, 0)));
  const row = await getDb(env).select({ kycStatus: profiles.kycStatus }).from(profiles).where(eq(profiles.memberId, target.memberId)).get();
  await getDb(env)
    .update(verificationRequests)
    .set({ status: "approved", decidedBy: member.memberId, decidedAt: Date.now() })
    .where(and(eq(verificationRequests.projectCode, projectCode), eq(verificationRequests.memberId, target.memberId), eq(verificationRequests.status, "open")));
  ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "flame", actor: { memberId: member.memberId, memberNo: member.memberNo }, params: { action: "approved" } }));
  return { memberNo: target.memberNo, kycStatus: row?.kycStatus ?? 0 };
}

/**
 * §2/§6 the basement: a separate area for verified members (kycStatus 1) only. It lists other verified
 * members (newest activity first, blocked pairs and muted members left out) and the flame holder.
 */
export async function basement(env: Env, member: SessionMember, pageSize: number): Promise<BasementInfo> {
  // §6: 9 (AI room) includes verified, so the check is "at least 1", as for leaving a message.
  if (member.kycStatus < 1) throw new AppError("featureLimited");
  const at = Date.now();
  const rows = await getDb(env)
    .select({ memberId: profiles.memberId })
    .from(profiles)
    .where(
      and(
        eq(profiles.projectCode, member.projectCode),
        gte(profiles.kycStatus, 1),
        eq(profiles.blocked, false),
        eq(profiles.closed, false),
        ne(profiles.memberId, member.memberId),
        notBlockedWith(member.memberId, profiles.memberId, at),
        notMutedBy(member.memberId, profiles.memberId, at),
      ),
    )
    .orderBy(desc(profiles.lastAccess))
    .limit(pageSize);
  const summaries = await profileSummaries(env, member.projectCode, rows.map((r) => r.memberId), await viewerFor(env, member.memberId));
  return { projectCode: member.projectCode, members: rows.flatMap((r) => summaries.get(r.memberId) ?? []), flame: await lastFlame(env, member.projectCode, member) };
}

// ── verification requests (README Decisions "Verification") ──────────────────────────────────────

/** The member's own state: verified or not, and whether a request is waiting. */
export async function myVerification(env: Env, projectCode: string, member: SessionMember): Promise<Verification> {
  const open = await getDb(env)
    .select({ createdAt: verificationRequests.createdAt })
    .from(verificationRequests)
    .where(and(eq(verificationRequests.projectCode, projectCode), eq(verificationRequests.memberId, member.memberId), eq(verificationRequests.status, "open")))
    .get();
  return { kycStatus: member.kycStatus, verified: member.kycStatus >= 1, requestedAt: open ? iso(open.createdAt) : null };
}

/**
 * A member below kycStatus 1 asks to be verified: one open request per member (the partial unique index holds it
 * under a race too); the current holder, if any, is told. Without a holder the request waits for the next one.
 */
export async function requestVerification(ctx: Ctx, projectCode: string) {
  const { env, member } = ctx;
  if (member.kycStatus >= 1) throw new AppError("alreadyVerified");
  const inserted = await getDb(env)
    .insert(verificationRequests)
    .values({ projectCode, memberId: member.memberId, status: "open", createdAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: verificationRequests.idRequest });
  if (inserted.length === 0) throw new AppError("verificationPending");
  const holder = await currentHolder(env, projectCode);
  if (holder) {
    ctx.waitUntil(notify(env, { projectCode, memberId: holder.holderMemberId, type: "flame", actor: { memberId: member.memberId, memberNo: member.memberNo }, params: { action: "requested" } }));
  }
  return myVerification(env, projectCode, member);
}

/** The holder's list of open requests, oldest first; members the holder cannot see (blocks, closed, gone) are left out. */
export async function openRequests(env: Env, projectCode: string, member: SessionMember): Promise<FlameRequests> {
  await requireHolder(env, projectCode, member);
  const at = Date.now();
  const rows = await getDb(env)
    .select({ memberId: verificationRequests.memberId, createdAt: verificationRequests.createdAt })
    .from(verificationRequests)
    .where(
      and(
        eq(verificationRequests.projectCode, projectCode),
        eq(verificationRequests.status, "open"),
        notBlockedWith(member.memberId, verificationRequests.memberId, at),
      ),
    )
    .orderBy(verificationRequests.idRequest)
    .limit(100);
  const summaries = await profileSummaries(env, projectCode, rows.map((r) => r.memberId), await viewerFor(env, member.memberId));
  return { requests: rows.flatMap((r) => {
    const profile = summaries.get(r.memberId);
    return profile ? [{ memberNo: profile.simpleCode, profile, requestedAt: iso(r.createdAt) }] : [];
  }) };
}

/** Operators (README Decisions "Verification"): name the tenant's flame holder — the first one, or a new one. */
export async function operatorSetHolder(env: Env, projectCode: string, operator: { memberId: string }, targetMemberId: string) {
  await getDb(env).insert(flamePasses).values({ projectCode, holderMemberId: targetMemberId, fromMemberId: operator.memberId, createdAt: Date.now() });
  // No actor: the member is told the operators named them, not which operator (operators stay unnamed).
  await notify(env, { projectCode, memberId: targetMemberId, type: "flame", params: { action: "received", by: "operator" } });
}

/** Operators: open the AI room (kycStatus 9, which includes verified, §6) to a member; closes an open request. */
export async function operatorGrantAiRoom(env: Env, projectCode: string, operator: { memberId: string }, targetMemberId: string) {
  const at = Date.now();
  await getDb(env).batch([
    getDb(env).update(profiles).set({ kycStatus: 9, updatedAt: at }).where(and(eq(profiles.memberId, targetMemberId), eq(profiles.projectCode, projectCode))),
    getDb(env)
      .update(verificationRequests)
      .set({ status: "approved", decidedBy: operator.memberId, decidedAt: at })
      .where(and(eq(verificationRequests.projectCode, projectCode), eq(verificationRequests.memberId, targetMemberId), inArray(verificationRequests.status, ["open"]))),
  ]);
  await notify(env, { projectCode, memberId: targetMemberId, type: "flame", params: { action: "aiRoom", by: "operator" } });
}
