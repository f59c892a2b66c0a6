// The operators' queue and their decisions on a member's case: suspend, take down, dismiss, lift (§8 reports, README Decisions "Moderation").
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { mediaUploads, members, moderationActions, profiles, reports, unqualifiedReports } from "../../db/schema";
import { mediaKeyFromUrl } from "../../contract/media";
import { SUSPENDED_INDEFINITELY, type DecisionBody, type DecisionResult, type ModerationAppeal, type ModerationCase, type ModerationQueue } from "../../contract/moderation";
import { AppError } from "../../lib/app-error";
import { contentHash } from "../../lib/crypto";
import { HOUR, iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { keptIn } from "../../lib/kept";
import { relatedAccounts } from "../members/block-evasion";
import { liftSuspension, standingColumns, suspendMember, tell, weightOf, type Member, type Standing } from "./moderation.service";
import { memberByNo } from "./operators.service";

// ── the queue ───────────────────────────────────────────────────────────────────────────────────

/** Open reports and open marks grouped by member, running suspensions, and open appeals; the tenant's only. */
export async function queue(env: Env, operator: Member): Promise<ModerationQueue> {
  const db = getDb(env);
  const at = Date.now();
  const p = operator.projectCode;
  const [reportRows, markRows, suspendedRows, appealRows] = await Promise.all([
    db.all<Standing & { targetId: string; reason: string; reportedAt: number; lastChatAt: number | null; targetLastChat: number | null }>(sql`
      select r.target_member_id as targetId, r.reason as reason, r.created_at as reportedAt, tp.last_chat_at as targetLastChat, ${standingColumns}
      from reports r join members m on m.id = r.member_id join profiles p on p.member_id = m.id
      join profiles tp on tp.member_id = r.target_member_id
      where r.project_code = ${p} and r.status = 'open' order by r.id_report desc limit 500`),
    db.all<{ targetId: string; n: number; w: number }>(sql`
      select tp.member_id as targetId, count(*) as n, sum(u.weight) as w from unqualified_reports u join profiles tp on tp.id_profile = u.id_profile
      where tp.project_code = ${p} and u.status = 'open' group by tp.member_id limit 200`),
    db.all<{ targetId: string; until: number }>(sql`
      select id as targetId, suspended_until as until from members where project_code = ${p} and suspended_until > ${at} limit 200`),
    db
      .select()
      .from(moderationActions)
      .where(and(eq(moderationActions.projectCode, p), eq(moderationActions.appealStatus, "open")))
      .limit(200),
  ]);
  const cases = new Map<string, Omit<ModerationCase, "profile" | "relatedAccounts">>();
  const caseOf = (id: string) =>
    keptIn(cases, id, () => ({ reports: [], reportWeight: 0, marks: 0, markWeight: 0, suspendedUntil: null, suspendedIndefinitely: false }));
  for (const r of reportRows) {
    const c = caseOf(r.targetId);
    const weight = weightOf(r, at, r.targetLastChat);
    c.reports.push({ reason: r.reason, dateAdd: iso(r.reportedAt)!, weight });
    c.reportWeight += weight;
  }
  for (const m of markRows) Object.assign(caseOf(m.targetId), { marks: m.n, markWeight: m.w ?? 0 });
  for (const s of suspendedRows) {
    Object.assign(caseOf(s.targetId), { suspendedUntil: s.until >= SUSPENDED_INDEFINITELY ? null : iso(s.until), suspendedIndefinitely: s.until >= SUSPENDED_INDEFINITELY });
  }
  const ids = [...new Set([...cases.keys(), ...appealRows.map((a) => a.targetMemberId)])];
  const [cards, related] = await Promise.all([profileSummaries(env, p, ids, await viewerFor(env, operator.memberId)), relatedAccounts(env, p, [...cases.keys()])]);
  return {
    cases: [...cases.entries()].flatMap(([id, c]) =>
      cards.get(id) ? [{ profile: cards.get(id)!, ...c, relatedAccounts: related.get(id) ?? { count: 0, memberNos: [] } }] : [],
    ),
    appeals: appealRows.flatMap((a): ModerationAppeal[] =>
      cards.get(a.targetMemberId) && (a.action === "suspend" || a.action === "takedown")
        ? [{ idAction: a.idAction, action: a.action, until: iso(a.until), appeal: a.appeal ?? "", appealedAt: iso(a.appealedAt)!, profile: cards.get(a.targetMemberId)! }]
        : [],
    ),
  };
}

// ── decisions ───────────────────────────────────────────────────────────────────────────────────

/** An operator decides a member's case: every open report and mark against them is closed with the outcome. */
export async function decide(env: Env, operator: Member, memberNo: string, body: DecisionBody): Promise<DecisionResult> {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  // An operator's own case is for another operator.
  if (target.memberId === operator.memberId) throw new AppError("cannotTargetSelf");
  const db = getDb(env);
  const at = Date.now();
  const closeReports = (status: "upheld" | "dismissed") =>
    db
      .update(reports)
      .set({ status, decidedBy: operator.memberId, decidedAt: at, outcome: body.action })
      .where(and(eq(reports.targetMemberId, target.memberId), eq(reports.projectCode, operator.projectCode), eq(reports.status, "open")));
  const closeMarks = (status: "upheld" | "dismissed") =>
    db.update(unqualifiedReports).set({ status }).where(and(eq(unqualifiedReports.idProfile, target.idProfile), eq(unqualifiedReports.status, "open")));
  const record = (action: "dismiss" | "lift" | "takedown") =>
    db
      .insert(moderationActions)
      .values({ projectCode: operator.projectCode, targetMemberId: target.memberId, operatorId: operator.memberId, action, createdAt: at })
      .returning({ idAction: moderationActions.idAction });
  // Reporters whose open reports this decision closes are told the outcome (README Decisions "Block evasion and
  // per-item reports"); read before the reports close.
  const reporters =
    body.action === "lift"
      ? []
      : await db
          .select({ memberId: reports.memberId })
          .from(reports)
          .where(and(eq(reports.targetMemberId, target.memberId), eq(reports.projectCode, operator.projectCode), eq(reports.status, "open")));
  let idAction: number;
  if (body.action === "suspend") {
    await closeReports("upheld").run();
    idAction = await suspendMember(env, { projectCode: operator.projectCode, memberId: target.memberId, until: body.hours === null ? null : at + body.hours * HOUR, operatorId: operator.memberId, at });
  } else if (body.action === "takedown") {
    const hash = await avatarHash(env, target.memberId);
    const [, , , inserted] = await db.batch([
      closeReports("upheld"),
      closeMarks("upheld"),
      db
        .update(profiles)
        // Taken down means gone from every card (the stored file stays for an appeal; §4's placeholder shows instead).
        .set({ qualify: false, avator: "", avatorBlur: "", avatorTakedownHash: hash, unqualifiedCount: sql`${profiles.unqualifiedCount} + 1`, updatedAt: at })
        .where(eq(profiles.memberId, target.memberId)),
      record("takedown"),
    ]);
    idAction = inserted[0]!.idAction;
    await tell(env, operator.projectCode, target.memberId, "avatarRemoved", idAction, null, true);
  } else if (body.action === "dismiss") {
    // A dismissed case also ends an automatic pause it caused; an operator's own suspension needs a lift.
    const auto = await runningSuspension(env, target.memberId, at);
    const [, , inserted] = await db.batch([closeReports("dismissed"), closeMarks("dismissed"), record("dismiss")]);
    idAction = inserted[0]!.idAction;
    if (auto && auto.operatorId === null) {
      await liftSuspension(env, target.memberId);
      await tell(env, operator.projectCode, target.memberId, "lifted", idAction, null, false);
    }
  } else {
    const [, inserted] = await db.batch([db.update(members).set({ suspendedUntil: null }).where(eq(members.id, target.memberId)), record("lift")]);
    idAction = inserted[0]!.idAction;
    await tell(env, operator.projectCode, target.memberId, "lifted", idAction, null, false);
  }
  const outcome = body.action === "dismiss" ? "dismissed" : "upheld";
  for (const r of reporters) await notify(env, { projectCode: operator.projectCode, memberId: r.memberId, type: "reportOutcome", params: { outcome } });
  return resultOf(env, target, body.action, idAction);
}

async function resultOf(env: Env, target: { memberId: string; memberNo: string }, action: DecisionBody["action"], idAction: number): Promise<DecisionResult> {
  const row = await getDb(env)
    .select({ until: members.suspendedUntil, qualify: profiles.qualify })
    .from(members)
    .innerJoin(profiles, eq(profiles.memberId, members.id))
    .where(eq(members.id, target.memberId))
    .get();
  const until = row?.until && row.until > Date.now() ? row.until : null;
  return { memberNo: target.memberNo, action, idAction, suspendedUntil: until && until < SUSPENDED_INDEFINITELY ? iso(until) : null, qualify: Boolean(row?.qualify) };
}

async function runningSuspension(env: Env, memberId: string, at: number) {
  const db = getDb(env);
  const member = await db.select({ until: members.suspendedUntil }).from(members).where(eq(members.id, memberId)).get();
  if (!member?.until || member.until <= at) return null;
  return db
    .select({ operatorId: moderationActions.operatorId })
    .from(moderationActions)
    .where(and(eq(moderationActions.targetMemberId, memberId), eq(moderationActions.action, "suspend")))
    .orderBy(sql`${moderationActions.idAction} desc`)
    .get();
}

/** SHA-256 of the stored avatar file (uploads re-encode deterministically: the same file stores the same bytes). */
async function avatarHash(env: Env, memberId: string): Promise<string | null> {
  const row = await getDb(env).select({ avator: profiles.avator }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  const key = row?.avator ? mediaKeyFromUrl(row.avator) : null;
  if (!key) return null;
  const stored = await getDb(env).select({ hash: mediaUploads.contentHash }).from(mediaUploads).where(eq(mediaUploads.key, key)).get();
  if (stored?.hash) return stored.hash;
  const object = await env.MEDIA.get(key);
  return object ? contentHash(await object.arrayBuffer()) : null;
}
