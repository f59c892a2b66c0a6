// Reports: a member reports another (or one of their items) to the tenant's moderation queue, and the report hides it for the reporter (§6 reported members, §8; README Decisions "Moderation").
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { guestbookEntries, mutes, reportHides, reports } from "../../db/schema";
import { reportableMessage } from "../chat/chat-messages";
import type { ReportKind } from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { AppError } from "../../lib/app-error";
import { findMember } from "../members/members";
import { weighReports } from "../moderation/moderation.service";

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
