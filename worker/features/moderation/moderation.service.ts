// Moderation's automatic side: what a member's word weighs, the one place a suspension starts, weighing reports and unqualified marks (§4 block control, §6 reported members, README Decisions "Moderation").
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { members, moderationActions, profiles, unqualifiedReports } from "../../db/schema";
import { AUTO_PAUSE_COOLDOWN_MS, AUTO_PAUSE_MS, AUTO_PAUSE_WEIGHT, ESTABLISHED_AGE_MS, SUSPENDED_INDEFINITELY, TAKEDOWN_WEIGHT, type ModerationOutcome } from "../../contract/moderation";
import { iso } from "../../lib/time";
import { notify } from "../notifications/notify";

export type Member = { memberId: string; projectCode: string };

// ── who counts (README Decisions "Moderation") ──────────────────────────────────────────────────

export type Standing = { createdAt: number; kycStatus: number; lastChatAt: number | null; upheld: number };

/**
 * What one reporter's (or marker's) word weighs. Brand-new accounts weigh nothing: under ESTABLISHED_AGE_MS old,
 * or created after `notAfter` (the target's last message: nobody can have seen it from there). Verified
 * (kycStatus ≥ 1) counts 1, merely active (has spoken in a room) 0.5, anyone else 0; reports an operator upheld
 * before add 0.5.
 */
export function weightOf(s: Standing, at: number, notAfter: number | null = null): number {
  if (at - s.createdAt < ESTABLISHED_AGE_MS) return 0;
  if (notAfter !== null && s.createdAt >= notAfter) return 0;
  const base = s.kycStatus >= 1 ? 1 : s.lastChatAt !== null ? 0.5 : 0;
  return base > 0 && s.upheld > 0 ? base + 0.5 : base;
}

export const standingColumns = sql`m.created_at as createdAt, p.kyc_status as kycStatus, p.last_chat_at as lastChatAt,
  (select count(*) from reports u where u.member_id = m.id and u.status = 'upheld') as upheld`;

async function standingOf(env: Env, memberId: string): Promise<Standing | undefined> {
  return getDb(env).get<Standing>(sql`select ${standingColumns} from members m join profiles p on p.member_id = m.id where m.id = ${memberId}`);
}

// ── suspensions ─────────────────────────────────────────────────────────────────────────────────

/**
 * The one place a suspension starts (automatic pause or an operator's uphold): the member's sends are refused
 * until `until` (null = until lifted; assertCanSend and the chat send batch read `suspended_until`), the decision
 * is recorded, and the member is told, with the right to appeal once. Closing the member's open sockets belongs
 * here too, so every suspension does it.
 */
export async function suspendMember(
  env: Env,
  input: { projectCode: string; memberId: string; until: number | null; operatorId: string | null; at?: number },
): Promise<number> {
  const at = input.at ?? Date.now();
  const db = getDb(env);
  const [, inserted] = await db.batch([
    db.update(members).set({ suspendedUntil: input.until ?? SUSPENDED_INDEFINITELY }).where(eq(members.id, input.memberId)),
    db
      .insert(moderationActions)
      .values({ projectCode: input.projectCode, targetMemberId: input.memberId, operatorId: input.operatorId, action: "suspend", until: input.until, createdAt: at })
      .returning({ idAction: moderationActions.idAction }),
  ]);
  const idAction = inserted[0]!.idAction;
  await tell(env, input.projectCode, input.memberId, "suspended", idAction, input.until, true);
  return idAction;
}

export function tell(env: Env, projectCode: string, memberId: string, outcome: ModerationOutcome, idAction: number, until: number | null, appealable: boolean) {
  return notify(env, { projectCode, memberId, type: "moderation", params: { outcome, idAction, until: iso(until), appealable } });
}

export async function liftSuspension(env: Env, memberId: string) {
  await getDb(env).update(members).set({ suspendedUntil: null }).where(eq(members.id, memberId));
}

// ── reports (§8) ────────────────────────────────────────────────────────────────────────────────

/**
 * After a report: the open reports against the target are weighed (weightOf, counting only reporters created
 * before the target's last message). At AUTO_PAUSE_WEIGHT the target's posting pauses for AUTO_PAUSE_MS — once
 * per AUTO_PAUSE_COOLDOWN_MS, never while a suspension runs — and the reports stay open for an operator.
 */
export async function weighReports(env: Env, projectCode: string, targetMemberId: string, at = Date.now()) {
  const db = getDb(env);
  const target = await db.get<{ lastChatAt: number | null; suspendedUntil: number | null }>(sql`
    select p.last_chat_at as lastChatAt, m.suspended_until as suspendedUntil from members m join profiles p on p.member_id = m.id where m.id = ${targetMemberId}`);
  // Nothing said, nothing to pause: a member who never spoke is left to the operators.
  if (!target || target.lastChatAt === null || (target.suspendedUntil !== null && target.suspendedUntil > at)) return;
  // Reports already weighed into an automatic pause never pause again: only those made since the last one count.
  const rows = await db.all<Standing>(sql`
    select ${standingColumns} from reports r join members m on m.id = r.member_id join profiles p on p.member_id = m.id
    where r.target_member_id = ${targetMemberId} and r.project_code = ${projectCode} and r.status = 'open' and m.status = 'active'
      and r.created_at > coalesce((select max(a.created_at) from moderation_actions a
        where a.target_member_id = ${targetMemberId} and a.action = 'suspend' and a.operator_id is null), 0)`);
  const weight = rows.reduce((sum, r) => sum + weightOf(r, at, target.lastChatAt), 0);
  if (weight < AUTO_PAUSE_WEIGHT) return;
  const recent = await db
    .select({ id: moderationActions.idAction })
    .from(moderationActions)
    .where(
      and(
        eq(moderationActions.targetMemberId, targetMemberId),
        eq(moderationActions.action, "suspend"),
        isNull(moderationActions.operatorId),
        gt(moderationActions.createdAt, at - AUTO_PAUSE_COOLDOWN_MS),
      ),
    )
    .get();
  if (recent) return;
  await suspendMember(env, { projectCode, memberId: targetMemberId, until: at + AUTO_PAUSE_MS, operatorId: null, at });
}

// ── unqualified marks (§4: 10 block taps) ───────────────────────────────────────────────────────

/**
 * A member marks another's avatar unqualified. Each marker counts once, with the weight of their standing; the
 * avatar comes down only when the open marks weigh TAKEDOWN_WEIGHT (established members), never by one call or
 * by new accounts. An operator can always take it down from the queue.
 */
export async function addMark(env: Env, markerId: string, target: { memberId: string; idProfile: number }) {
  const db = getDb(env);
  const at = Date.now();
  const standing = await standingOf(env, markerId);
  const weight = standing ? weightOf(standing, at) : 0;
  const added = await db
    .insert(unqualifiedReports)
    .values({ idProfile: target.idProfile, reporterId: markerId, createdAt: at, weight })
    .onConflictDoNothing()
    .returning({ weight: unqualifiedReports.weight });
  // A repeated or weightless mark changes nothing: it must not re-trigger a takedown after a new upload.
  if (!added.length || !(added[0]!.weight > 0)) return;
  // Only marks made since the current avatar was uploaded weigh against it.
  const sum = await db.get<{ w: number }>(sql`
    select coalesce(sum(u.weight), 0) as w from unqualified_reports u
    where u.id_profile = ${target.idProfile} and u.status = 'open'
      and u.created_at >= coalesce((select mu.created_at from profiles p join media_uploads mu on p.avator = '/media/' || mu.key
        where p.id_profile = ${target.idProfile}), 0)`);
  if ((sum?.w ?? 0) >= TAKEDOWN_WEIGHT) {
    await db
      .update(profiles)
      .set({ qualify: false, unqualifiedCount: sql`${profiles.unqualifiedCount} + 1`, updatedAt: at })
      .where(and(eq(profiles.idProfile, target.idProfile), eq(profiles.qualify, true)));
  }
}
