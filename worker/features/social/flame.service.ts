import { and, desc, eq, ne } from "drizzle-orm";
import { getDb } from "../../db/client";
import { flamePasses, profiles } from "../../db/schema";
import type { FlameInfo } from "../../contract/social";
import { AppError } from "../../http/app-error";
import { iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import { profileSummaries, viewerFor } from "../profiles/profile-summary";
import type { SessionMember } from "../session/session.service";
import { isBlockedBetween, notBlockedWith, notMutedBy } from "./visibility";
import { visibleTarget } from "./members";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };

async function currentHolder(env: Env, projectCode: string) {
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
export async function approveVerified(ctx: Ctx, projectCode: string, memberNo: string) {
  const { env, member } = ctx;
  await requireHolder(env, projectCode, member);
  const target = await visibleTarget(env, projectCode, memberNo, member);
  await getDb(env)
    .update(profiles)
    .set({ kycStatus: 1, updatedAt: Date.now() })
    .where(and(eq(profiles.memberId, target.memberId), eq(profiles.projectCode, projectCode), eq(profiles.kycStatus, 0)));
  const row = await getDb(env).select({ kycStatus: profiles.kycStatus }).from(profiles).where(eq(profiles.memberId, target.memberId)).get();
  ctx.waitUntil(notify(env, { projectCode, memberId: target.memberId, type: "flame", actor: { memberId: member.memberId, memberNo: member.memberNo }, params: { action: "approved" } }));
  return { memberNo: target.memberNo, kycStatus: row?.kycStatus ?? 0 };
}

/**
 * §2/§6 the basement: a separate area for verified members (kycStatus 1) only. It lists other verified
 * members (newest activity first, blocked pairs and muted members left out) and the flame holder.
 */
export async function basement(env: Env, member: SessionMember, pageSize: number) {
  if (member.kycStatus !== 1) throw new AppError("featureLimited");
  const at = Date.now();
  const rows = await getDb(env)
    .select({ memberId: profiles.memberId })
    .from(profiles)
    .where(
      and(
        eq(profiles.projectCode, member.projectCode),
        eq(profiles.kycStatus, 1),
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
