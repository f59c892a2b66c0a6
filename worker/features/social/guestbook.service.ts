import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { guestbookEntries, members, profiles, socialSettings } from "../../db/schema";
import type { GuestbookCounts, GuestbookEntry, Page } from "../../contract/social";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import { iso } from "../../lib/time";
import { sendMail } from "../notifications/mail";
import { notify } from "../notifications/notify";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { visibleTarget } from "../members/members";
import { posterState, postingRefusal } from "../members/posting-rules";
import { maskEntry, mutedPhrasesOf } from "../members/muted-words";
import { notBlockedWith, notMutedBy, notReportedBy } from "../members/visibility";

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };
type Row = { idGuestbook: number; ownerMemberId: string; authorMemberId: string; message: string; createdAt: number; readAt: number | null };

const entryColumns = {
  idGuestbook: guestbookEntries.idGuestbook,
  ownerMemberId: guestbookEntries.ownerMemberId,
  authorMemberId: guestbookEntries.authorMemberId,
  message: guestbookEntries.message,
  createdAt: guestbookEntries.createdAt,
  readAt: guestbookEntries.readAt,
};

/** Entries as the member sees them: another's entry with one of their muted words comes without its text unless `reveal`. */
async function toEntries(env: Env, member: SessionMember, rows: Row[], reveal = false): Promise<GuestbookEntry[]> {
  const [summaries, phrases] = await Promise.all([
    profileSummaries(env, member.projectCode, rows.flatMap((r) => [r.authorMemberId, r.ownerMemberId]), await viewerFor(env, member.memberId)),
    reveal || !rows.some((r) => r.authorMemberId !== member.memberId) ? [] : mutedPhrasesOf(env, member.memberId),
  ]);
  return rows.flatMap((r) => {
    const profile = summaries.get(r.authorMemberId);
    const owner = summaries.get(r.ownerMemberId);
    if (!profile || !owner) return [];
    const entry = { idGuestbook: r.idGuestbook, message: r.message, timelog: iso(r.createdAt)!, profile, ownerMemberNo: owner.simpleCode, read: r.readAt != null };
    return [maskEntry(entry, member.memberNo, phrases)];
  });
}

/**
 * "Show anyway" (README Decisions "Muted words"): one entry with its text, for its owner or author; an author blocked
 * either way with the viewer, or another tenant's entry, is not found.
 */
export async function revealGuestbookEntry(env: Env, member: SessionMember, idGuestbook: number): Promise<GuestbookEntry> {
  const row = await getDb(env)
    .select(entryColumns)
    .from(guestbookEntries)
    .where(
      and(
        eq(guestbookEntries.idGuestbook, idGuestbook),
        eq(guestbookEntries.projectCode, member.projectCode),
        or(eq(guestbookEntries.ownerMemberId, member.memberId), eq(guestbookEntries.authorMemberId, member.memberId)),
        notBlockedWith(member.memberId, guestbookEntries.authorMemberId),
        notBlockedWith(member.memberId, guestbookEntries.ownerMemberId),
      ),
    )
    .get();
  const [entry] = row ? await toEntries(env, member, [row], true) : [];
  if (!entry) throw new AppError("notFound");
  return entry;
}

/** Entries in my guestbook that I may see: authors blocked either way or muted by me are hidden. */
const visibleToOwner = (member: SessionMember, at: number) =>
  and(
    eq(guestbookEntries.ownerMemberId, member.memberId),
    eq(guestbookEntries.projectCode, member.projectCode),
    notBlockedWith(member.memberId, guestbookEntries.authorMemberId, at),
    notMutedBy(member.memberId, guestbookEntries.authorMemberId, at),
    notReportedBy(member.memberId, "guestbook", guestbookEntries.idGuestbook),
  );

/** My guestbook, newest first. Reading a page marks its entries read (the unread badge clears). */
export async function myGuestbook(env: Env, member: SessionMember, pageSize: number, before?: number): Promise<Page<GuestbookEntry> & GuestbookCounts> {
  const db = getDb(env);
  const at = Date.now();
  const rows = await db
    .select(entryColumns)
    .from(guestbookEntries)
    .where(and(visibleToOwner(member, at), before ? lt(guestbookEntries.idGuestbook, before) : undefined))
    .orderBy(desc(guestbookEntries.idGuestbook))
    .limit(pageSize + 1);
  const slice = rows.slice(0, pageSize);
  const items = await toEntries(env, member, slice);
  const unreadIds = slice.filter((r) => r.readAt == null).map((r) => r.idGuestbook);
  if (unreadIds.length > 0) {
    await db.update(guestbookEntries).set({ readAt: at }).where(and(eq(guestbookEntries.ownerMemberId, member.memberId), inArray(guestbookEntries.idGuestbook, unreadIds)));
  }
  const counts = await guestbookCounts(env, member);
  return { items, next: rows.length > pageSize ? slice[slice.length - 1]!.idGuestbook : null, ...counts };
}

export async function guestbookCounts(env: Env, member: SessionMember): Promise<GuestbookCounts> {
  const row = await getDb(env)
    .select({ total: sql<number>`count(*)`, unread: sql<number>`coalesce(sum(case when ${guestbookEntries.readAt} is null then 1 else 0 end), 0)` })
    .from(guestbookEntries)
    .where(visibleToOwner(member, Date.now()))
    .get();
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** The conversation between me and one member across both guestbooks (the §2 history drawer). */
export async function guestbookHistory(env: Env, projectCode: string, member: SessionMember, memberNo: string, pageSize: number, before?: number): Promise<Page<GuestbookEntry>> {
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const me = member.memberId;
  const them = target.memberId;
  const rows = await getDb(env)
    .select(entryColumns)
    .from(guestbookEntries)
    .where(
      and(
        or(
          and(eq(guestbookEntries.ownerMemberId, me), eq(guestbookEntries.authorMemberId, them)),
          and(eq(guestbookEntries.ownerMemberId, them), eq(guestbookEntries.authorMemberId, me)),
        ),
        eq(guestbookEntries.projectCode, projectCode),
        notReportedBy(me, "guestbook", guestbookEntries.idGuestbook),
        before ? lt(guestbookEntries.idGuestbook, before) : undefined,
      ),
    )
    .orderBy(desc(guestbookEntries.idGuestbook))
    .limit(pageSize + 1);
  const slice = rows.slice(0, pageSize);
  return { items: await toEntries(env, member, slice), next: rows.length > pageSize ? slice[slice.length - 1]!.idGuestbook : null };
}

/**
 * Writes into `memberNo`'s guestbook. §5/§6: leaving a message needs kycStatus 1 — except a reply to a
 * member who wrote in my guestbook (the Messages page reply dialog), which continues their conversation.
 */
export async function writeGuestbook(ctx: Ctx, projectCode: string, memberNo: string, message: string, mode: "reply" | "leave") {
  const { env, member } = ctx;
  await rateLimit(env.RL_WRITE, `write:${member.memberId}`);
  // §5/§6/§8 posting rules (posting-rules.ts): a guestbook message is a post. A report block or posting pause is
  // said first; then verification (the leave-message dialog offers the request); then the avatar rules.
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const poster = await posterState(env, member.memberId);
  const blocked = postingRefusal(poster, "send");
  if (blocked) throw new AppError(blocked);
  // §6: 9 (AI room) includes verified.
  if (mode === "leave" && member.kycStatus < 1) throw new AppError("needKycToLeaveMessage");
  const refusal = postingRefusal(poster, "post");
  if (refusal) throw new AppError(refusal);
  const target = await visibleTarget(env, projectCode, memberNo, member);
  const db = getDb(env);
  if (member.kycStatus < 1) {
    const wroteToMe = await db
      .select({ id: guestbookEntries.idGuestbook })
      .from(guestbookEntries)
      .where(and(eq(guestbookEntries.ownerMemberId, member.memberId), eq(guestbookEntries.authorMemberId, target.memberId)))
      .limit(1)
      .get();
    if (!wroteToMe) throw new AppError("needKycToLeaveMessage");
  }
  const createdAt = Date.now();
  const row = await db
    .insert(guestbookEntries)
    .values({ projectCode, ownerMemberId: target.memberId, authorMemberId: member.memberId, message, createdAt })
    .returning(entryColumns)
    .get();
  ctx.waitUntil(
    notify(env, {
      projectCode,
      memberId: target.memberId,
      type: "guestbook",
      actor: { memberId: member.memberId, memberNo: member.memberNo },
      params: { idGuestbook: row.idGuestbook, excerpt: message.slice(0, 80) },
    }).then((item) => (item ? emailAlert(env, target.memberId, member.memberNo) : null)),
  );
  const [entry] = await toEntries(env, member, [row]);
  return entry!;
}

/** The Messages page e-mail alert switch: a stored (not blocked, not muted) guestbook entry mails the owner. */
async function emailAlert(env: Env, ownerId: string, authorNo: string) {
  const row = await getDb(env)
    .select({ email: members.email, projectCode: members.projectCode, emailAlerts: socialSettings.emailAlerts, nickname: profiles.nickname })
    .from(members)
    .innerJoin(socialSettings, eq(socialSettings.memberId, members.id))
    .leftJoin(profiles, eq(profiles.memberId, members.id))
    .where(eq(members.id, ownerId))
    .get();
  if (!row?.emailAlerts) return;
  await sendMail(env, {
    projectCode: row.projectCode,
    to: row.email,
    subject: "Velvet: a new guestbook message",
    body: `Hello ${row.nickname || ""},\n\nmember ${authorNo} left a message in your guestbook. Open Velvet to read it.\n\nYou can switch these e-mails off on the Messages page.`,
  });
}

/** Author or owner deletes; for anyone else the entry does not exist (404). */
export async function deleteGuestbook(env: Env, member: SessionMember, idGuestbook: number) {
  const deleted = await getDb(env)
    .delete(guestbookEntries)
    .where(
      and(
        eq(guestbookEntries.idGuestbook, idGuestbook),
        eq(guestbookEntries.projectCode, member.projectCode),
        or(eq(guestbookEntries.ownerMemberId, member.memberId), eq(guestbookEntries.authorMemberId, member.memberId)),
      ),
    )
    .returning({ id: guestbookEntries.idGuestbook });
  if (deleted.length === 0) throw new AppError("notFound");
  return { idGuestbook, deleted: true };
}

export async function unreadGuestbookSince(env: Env, member: SessionMember, since: number | null) {
  const at = Date.now();
  const row = await getDb(env)
    .select({ unread: sql<number>`count(*)`, fresh: sql<number>`coalesce(sum(case when ${guestbookEntries.createdAt} > ${since ?? 0} then 1 else 0 end), 0)` })
    .from(guestbookEntries)
    .where(and(visibleToOwner(member, at), isNull(guestbookEntries.readAt)))
    .get();
  return { unread: row?.unread ?? 0, fresh: row?.fresh ?? 0 };
}
