import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, not, or, sql } from "drizzle-orm";
import { hasMutedWord, mutedPhrasesOf } from "../members/muted-words";
import { getDb } from "../../db/client";
import { flamePasses, follows, guestbookEntries, notifications, socialSettings } from "../../db/schema";
import type { NotificationType } from "../../contract/notifications";
import type { ActionKind, DoorBell, MemberActions, NotificationView, NotificationsRead, Page, SocialSettings } from "../../contract/social";
import { DAY, iso } from "../../lib/time";
import { notificationTargets, shownParams } from "../notifications/notification-targets";
import { filteredSender } from "../notifications/sender-filter";
import { closedTo } from "../members/profile-access";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { unreadGuestbookSince } from "./guestbook.service";
import { visibleTarget } from "../members/members";
import { notBlockedWith, notMutedBy } from "../members/visibility";
import { connectionsOpenTo } from "../members/connections-visibility";

/**
 * Notifications whose actor is blocked either way or muted by me are hidden (and never counted). Those from a sender
 * I filter (sender-filter.ts) show only in the "Filtered" section (`filtered`), and are never counted either.
 */
const visibleNotifications = (member: SessionMember, at: number, filtered = false) => {
  const isFiltered = filteredSender(member.memberId, notifications.actorMemberId, { typeColumn: notifications.type }, at);
  return and(
    eq(notifications.memberId, member.memberId),
    eq(notifications.projectCode, member.projectCode),
    filtered
      ? and(isNotNull(notifications.actorMemberId), isFiltered)
      : or(isNull(notifications.actorMemberId), not(isFiltered)),
    or(isNull(notifications.actorMemberId), and(notBlockedWith(member.memberId, notifications.actorMemberId, at), notMutedBy(member.memberId, notifications.actorMemberId, at))),
  );
};

/** Stored notifications, newest first; the browser renders each type in the viewer's language. */
export async function listNotifications(env: Env, member: SessionMember, pageSize: number, before?: number, filtered = false): Promise<Page<NotificationView>> {
  const at = Date.now();
  const rows = await getDb(env)
    .select()
    .from(notifications)
    .where(and(visibleNotifications(member, at, filtered), before ? lt(notifications.idNotification, before) : undefined))
    .orderBy(desc(notifications.idNotification))
    .limit(pageSize + 1);
  const slice = rows.slice(0, pageSize);
  const actors = await profileSummaries(env, member.projectCode, slice.flatMap((r) => (r.actorMemberId ? [r.actorMemberId] : [])), await viewerFor(env, member.memberId));
  const parsed = slice.map((r) => {
    let params: Record<string, unknown> = {};
    try {
      params = JSON.parse(r.params) as Record<string, unknown>;
    } catch {
      // A malformed row is shown without parameters rather than failing the whole list.
    }
    return { type: r.type, params, actor: r.actorMemberId ? (actors.get(r.actorMemberId) ?? null) : null };
  });
  const targets = await notificationTargets(env, member, parsed, parsed.map((p) => p.actor));
  // README Decisions "Muted words": a guestbook excerpt with one of the member's muted words is withheld.
  const phrases = parsed.some((p) => typeof p.params.excerpt === "string") ? await mutedPhrasesOf(env, member.memberId, at) : [];
  const items = slice.map((r, i) => {
    const { params, actor } = parsed[i]!;
    return {
      idNotification: r.idNotification,
      type: r.type as NotificationType,
      actorMemberNo: actor?.simpleCode ?? null,
      actor,
      params: shownParams(r.type, hasMutedWord(params.excerpt as string | undefined, phrases) ? { ...params, excerpt: "" } : params),
      target: targets[i] ?? null,
      dateAdd: iso(r.createdAt)!,
      read: r.readAt != null,
    };
  });
  return { items, next: rows.length > pageSize ? slice[slice.length - 1]!.idNotification : null };
}

export async function unreadNotificationCount(env: Env, member: SessionMember, since = 0) {
  const row = await getDb(env)
    .select({ count: sql<number>`count(*)`, fresh: sql<number>`coalesce(sum(case when ${notifications.createdAt} > ${since} then 1 else 0 end), 0)` })
    .from(notifications)
    .where(and(visibleNotifications(member, Date.now()), isNull(notifications.readAt)))
    .get();
  return { count: row?.count ?? 0, fresh: row?.fresh ?? 0 };
}

/** Marks the given notifications (or all) read; only the caller's own rows are touched. */
export async function markNotificationsRead(env: Env, member: SessionMember, ids?: number[]): Promise<NotificationsRead> {
  const result = await getDb(env)
    .update(notifications)
    .set({ readAt: Date.now() })
    .where(and(eq(notifications.memberId, member.memberId), isNull(notifications.readAt), ids ? inArray(notifications.idNotification, ids.length ? ids : [0]) : undefined))
    .returning({ id: notifications.idNotification });
  return { marked: result.length, unread: (await unreadNotificationCount(env, member)).count };
}

/** §2 two-step clear-all: deletes every stored notification of the caller. */
export async function clearNotifications(env: Env, member: SessionMember) {
  const result = await getDb(env).delete(notifications).where(eq(notifications.memberId, member.memberId)).returning({ id: notifications.idNotification });
  return { cleared: result.length };
}

export async function getSettings(env: Env, member: SessionMember): Promise<SocialSettings> {
  const row = await getDb(env).select({ emailAlerts: socialSettings.emailAlerts }).from(socialSettings).where(eq(socialSettings.memberId, member.memberId)).get();
  return { emailAlerts: row?.emailAlerts ?? false };
}

export async function putSettings(env: Env, member: SessionMember, settings: SocialSettings): Promise<SocialSettings> {
  await getDb(env)
    .insert(socialSettings)
    .values({ memberId: member.memberId, projectCode: member.projectCode, emailAlerts: settings.emailAlerts })
    .onConflictDoUpdate({ target: socialSettings.memberId, set: { emailAlerts: settings.emailAlerts } });
  return getSettings(env, member);
}

/**
 * §7 "door-bell check": does the member have new guestbook or notification activity since their last
 * check? `ring` is true when something unread arrived after the previous check; the check itself moves
 * the mark, so the bell rings once per arrival (the bottom-navigation dot and a sound use it).
 */
export async function doorBell(env: Env, member: SessionMember): Promise<DoorBell> {
  const db = getDb(env);
  const at = Date.now();
  const settings = await db.select({ checkedAt: socialSettings.doorBellCheckedAt }).from(socialSettings).where(eq(socialSettings.memberId, member.memberId)).get();
  const since = settings?.checkedAt ?? null;
  const [guestbook, notices] = await Promise.all([unreadGuestbookSince(env, member, since), unreadNotificationCount(env, member, since ?? 0)]);
  await db
    .insert(socialSettings)
    .values({ memberId: member.memberId, projectCode: member.projectCode, doorBellCheckedAt: at })
    .onConflictDoUpdate({ target: socialSettings.memberId, set: { doorBellCheckedAt: at } });
  return { ring: guestbook.fresh + notices.fresh > 0, guestbookUnread: guestbook.unread, notificationsUnread: notices.count, checkedAt: iso(at)!, since: iso(since) };
}

const ACTION_WINDOW = 30 * DAY;
const ACTION_ROWS = 500;

/**
 * §7 "actions by member code" = the member's recent public actions and, from them, the §3 Action stats
 * (actionHour 0–23 UTC, actionCount) behind the public profile's activity-by-hour chart. Public actions
 * are the ones other members can see happen: follows given, guestbook entries written, flames passed —
 * never their content or targets. Each source is read through its (member, time) index, bounded.
 */
export async function memberActions(env: Env, projectCode: string, viewer: SessionMember, memberNo: string): Promise<MemberActions> {
  const target = await visibleTarget(env, projectCode, memberNo, viewer).catch((error) => {
    // Looking at your own activity is allowed.
    if (memberNo === viewer.memberNo) return { memberId: viewer.memberId };
    throw error;
  });
  const stats = Array.from({ length: 24 }, (_, actionHour) => ({ actionHour, actionCount: 0 }));
  // A closed profile's activity is for those it opens to (README "Closed profiles and what a visitor sees").
  if (memberNo !== viewer.memberNo && (await closedTo(env, projectCode, memberNo, viewer.memberId))) return { stats, recent: [] };
  const db = getDb(env);
  const from = Date.now() - ACTION_WINDOW;
  // Follows given would count the member's following (README Decisions "Who sees my connections"): left out when hidden.
  const followsShown = await connectionsOpenTo(env, target.memberId, viewer.memberId);
  const [followRows, guestbookRows, flameRows] = await Promise.all([
    followsShown
      ? db.select({ at: follows.createdAt }).from(follows).where(and(eq(follows.memberId, target.memberId), gt(follows.createdAt, from))).orderBy(desc(follows.idFollow)).limit(ACTION_ROWS)
      : Promise.resolve([] as { at: number }[]),
    db
      .select({ at: guestbookEntries.createdAt })
      .from(guestbookEntries)
      .where(and(eq(guestbookEntries.authorMemberId, target.memberId), gt(guestbookEntries.createdAt, from)))
      .orderBy(desc(guestbookEntries.createdAt))
      .limit(ACTION_ROWS),
    db.select({ at: flamePasses.createdAt }).from(flamePasses).where(and(eq(flamePasses.fromMemberId, target.memberId), gt(flamePasses.createdAt, from))).orderBy(desc(flamePasses.createdAt)).limit(ACTION_ROWS),
  ]);
  const all: { type: ActionKind; at: number }[] = [
    ...followRows.map((r) => ({ type: "follow" as const, at: r.at })),
    ...guestbookRows.map((r) => ({ type: "guestbook" as const, at: r.at })),
    ...flameRows.map((r) => ({ type: "flame" as const, at: r.at })),
  ].sort((a, b) => b.at - a.at);
  for (const action of all) stats[new Date(action.at).getUTCHours()]!.actionCount++;
  return { stats, recent: all.slice(0, 20).map((a) => ({ type: a.type, dateAdd: iso(a.at)! })) };
}
