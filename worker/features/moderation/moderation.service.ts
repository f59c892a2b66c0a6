import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { mediaUploads, members, moderationActions, operators, profiles, reports, unqualifiedReports } from "../../db/schema";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import {
  AUTO_PAUSE_COOLDOWN_MS,
  AUTO_PAUSE_MS,
  AUTO_PAUSE_WEIGHT,
  ESTABLISHED_AGE_MS,
  SUSPENDED_INDEFINITELY,
  TAKEDOWN_WEIGHT,
  type DecisionBody,
  type DecisionResult,
  type ModerationAppeal,
  type ModerationCase,
  type ModerationOutcome,
  type ModerationQueue,
} from "../../contract/moderation";
import { AppError } from "../../lib/app-error";
import { contentHash } from "../../lib/crypto";
import { HOUR, iso } from "../../lib/time";
import { notify } from "../notifications/notify";
import { operatorGrantAiRoom, operatorSetHolder } from "../social/flame.service";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { isDeletedCode } from "../../lib/ids";
import { keptIn } from "../../lib/kept";
import { relatedAccounts } from "../members/block-evasion";

type Member = { memberId: string; projectCode: string };

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

const standingColumns = sql`m.created_at as createdAt, p.kyc_status as kycStatus, p.last_chat_at as lastChatAt,
  (select count(*) from reports u where u.member_id = m.id and u.status = 'upheld') as upheld`;

async function standingOf(env: Env, memberId: string): Promise<Standing | undefined> {
  return getDb(env).get<Standing>(sql`select ${standingColumns} from members m join profiles p on p.member_id = m.id where m.id = ${memberId}`);
}

// ── operators ───────────────────────────────────────────────────────────────────────────────────

export async function isOperator(env: Env, projectCode: string, memberId: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ id: operators.memberId })
    .from(operators)
    .where(and(eq(operators.projectCode, projectCode), eq(operators.memberId, memberId)))
    .get();
  return row !== undefined;
}

/** Operator routes and the page answer 404 to everyone else: they must not even confirm the queue exists. */
export async function requireOperator(env: Env, member: Member) {
  if (!(await isOperator(env, member.projectCode, member.memberId))) throw new AppError("notFound");
}

export async function grantOperator(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  const db = getDb(env);
  const row = await db
    .insert(operators)
    .values({ projectCode: operator.projectCode, memberId: target.memberId, grantedBy: operator.memberId, createdAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: operators.memberId });
  if (row.length === 0) throw new AppError("alreadyOperator");
  return { memberNo: target.memberNo, operator: true };
}

/** README Decisions "Verification": operators name the tenant's flame holder (the first, or a new one). */
export async function makeFlameHolder(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  await operatorSetHolder(env, operator.projectCode, operator, target.memberId);
  return { memberNo: target.memberNo, flameHolder: true };
}

/** README Decisions "Verification": only operators open the AI room (kycStatus 9). */
export async function grantAiRoom(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  await operatorGrantAiRoom(env, operator.projectCode, operator, target.memberId);
  return { memberNo: target.memberNo, kycStatus: 9 };
}

async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env)
    .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode, idProfile: profiles.idProfile })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!row || isDeletedCode(row.memberNo)) throw new AppError("notFound");
  return row;
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

function tell(env: Env, projectCode: string, memberId: string, outcome: ModerationOutcome, idAction: number, until: number | null, appealable: boolean) {
  return notify(env, { projectCode, memberId, type: "moderation", params: { outcome, idAction, until: iso(until), appealable } });
}

async function liftSuspension(env: Env, memberId: string) {
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


// ── appeals ─────────────────────────────────────────────────────────────────────────────────────

/** The affected member appeals a suspension or takedown once; a second appeal is 409 alreadyAppealed. */
export async function appeal(env: Env, member: Member, idAction: number, text: string) {
  const db = getDb(env);
  const at = Date.now();
  const own = and(
    eq(moderationActions.idAction, idAction),
    eq(moderationActions.targetMemberId, member.memberId),
    eq(moderationActions.projectCode, member.projectCode),
    inArray(moderationActions.action, ["suspend", "takedown"]),
  );
  const updated = await db
    .update(moderationActions)
    .set({ appeal: text, appealedAt: at, appealStatus: "open" })
    .where(and(own, isNull(moderationActions.appealedAt)))
    .returning({ idAction: moderationActions.idAction });
  if (updated.length === 1) return { idAction, appealed: true };
  const exists = await db.select({ id: moderationActions.idAction }).from(moderationActions).where(own).get();
  throw new AppError(exists ? "alreadyAppealed" : "notFound");
}

async function latestSuspension(env: Env, memberId: string): Promise<number | undefined> {
  const row = await getDb(env)
    .select({ idAction: moderationActions.idAction })
    .from(moderationActions)
    .where(and(eq(moderationActions.targetMemberId, memberId), eq(moderationActions.action, "suspend")))
    .orderBy(sql`${moderationActions.idAction} desc`)
    .get();
  return row?.idAction;
}

/** A granted takedown appeal puts the taken-down file back, unless the member has uploaded another since. */
async function restoreAvatar(env: Env, memberId: string, at: number) {
  const db = getDb(env);
  const card = await db.select({ avator: profiles.avator, hash: profiles.avatorTakedownHash }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  const upload = card?.hash
    ? await db
        .select({ key: mediaUploads.key, renditionKey: mediaUploads.renditionKey })
        .from(mediaUploads)
        .where(and(eq(mediaUploads.memberId, memberId), eq(mediaUploads.kind, "avatar"), eq(mediaUploads.contentHash, card.hash)))
        .orderBy(sql`${mediaUploads.createdAt} desc`)
        .get()
    : undefined;
  const restored = !card?.avator && upload ? { avator: mediaUrl(upload.key), avatorBlur: upload.renditionKey ? mediaUrl(upload.renditionKey) : "" } : {};
  await db
    .update(profiles)
    .set({ ...restored, qualify: sql`${restored.avator ? sql`1` : sql`${profiles.avator} <> ''`}`, avatorTakedownHash: null, updatedAt: at })
    .where(eq(profiles.memberId, memberId));
}

/** An operator answers an open appeal: granted lifts the suspension or restores the avatar; either way the member is told. */
export async function decideAppeal(env: Env, operator: Member, idAction: number, grant: boolean) {
  const db = getDb(env);
  const at = Date.now();
  const [action] = await db
    .update(moderationActions)
    .set({ appealStatus: grant ? "granted" : "refused", appealDecidedBy: operator.memberId, appealDecidedAt: at })
    .where(
      and(
        eq(moderationActions.idAction, idAction),
        eq(moderationActions.projectCode, operator.projectCode),
        eq(moderationActions.appealStatus, "open"),
        // An operator's own appeal is for another operator.
        sql`${moderationActions.targetMemberId} <> ${operator.memberId}`,
      ),
    )
    .returning();
  if (!action) throw new AppError("notFound");
  // Granting an old appeal lifts only the suspension it was about, never a later one.
  if (grant && action.action === "suspend" && (await latestSuspension(env, action.targetMemberId)) === action.idAction) await liftSuspension(env, action.targetMemberId);
  if (grant && action.action === "takedown") await restoreAvatar(env, action.targetMemberId, at);
  await tell(env, operator.projectCode, action.targetMemberId, grant ? "appealGranted" : "appealRefused", idAction, null, false);
  return { idAction, granted: grant };
}
