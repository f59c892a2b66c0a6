import { and, desc, eq, ne, sql } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { chatReminders, coinLedger, guestbookEntries, notifications, profiles, visitors } from "../../db/schema";
import { HOME_LIMITS, type HomeDashboard } from "../../contract/home";
import type { ProfileSummary } from "../../contract/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { profileSummaryColumns, toProfileSummary, toViewer, type Viewer } from "../members/profile-summary";
import { strangerColumnsOf } from "../members/stranger-media";
import { blockedWith, notBlockedWith, notMutedBy } from "../members/visibility";
import { photoOf } from "../media/banners.service";
import { DAY, iso, utcDate } from "../../lib/time";
import { canSeeAvatars } from "../members/avatar-rights";
import {
  SPARE,
  homeListsOf,
  keepLists,
  keptLists,
  listsSeenBy,
  listsTtlMs,
  tenantListStatements,
  viewerListStatements,
  type HomeLists,
  type ListRows,
} from "./home-lists";

type SummaryRow = Parameters<typeof toProfileSummary>[0];

/**
 * The whole §2 dashboard in ONE `db.batch` (one D1 round trip): every card's rows come from a bounded, indexed
 * select, so the cost does not grow with the number of members (tests/api/home.test.ts). The tenant-wide lists
 * join that batch only when this isolate has none fresh for the tenant (home-lists.ts).
 */
export async function loadDashboard(env: Env, member: SessionMember, projectCode: string): Promise<HomeDashboard> {
  const db = getDb(env);
  const me = member.memberId;
  const at = Date.now();
  const dayStart = Date.parse(`${utcDate(at)}T00:00:00.000Z`);
  const values = { me, projectCode, at, dayStart, dayEnd: dayStart + DAY };

  const ttl = listsTtlMs(env);
  const kept = ttl > 0 ? keptLists(projectCode, at, ttl) : undefined;
  let mine: ViewerRows;
  let tenantLists: () => Promise<HomeLists>;
  if (kept) {
    mine = await flatBatch(env, homeStatements(db, values));
    // A kept read that failed has been forgotten (keepLists): this call then reads the lists itself.
    tenantLists = () => kept.catch(async () => homeListsOf(await flatBatch(env, tenantListStatements(db, values))));
  } else {
    // The tenant's lists join this call's own batch (still one round trip); calls arriving meanwhile share it.
    const read = flatBatch(env, [...homeStatements(db, values), ...tenantListStatements(db, values)] as const);
    const listsOf = (rows: Awaited<typeof read>) => homeListsOf(rows.slice(VIEWER_STATEMENTS) as unknown as ListRows);
    if (ttl > 0) keepLists(projectCode, at, ttl, read.then(listsOf));
    const rows = await read;
    mine = rows.slice(0, VIEWER_STATEMENTS) as unknown as ViewerRows;
    tenantLists = async () => listsOf(rows);
  }
  const [meRows, coinRows, reminderRows, guestbookRows, visitorRows, blockRows] = mine;
  // Fewer than SPARE blocks: the kept lists have room for every member this viewer may not see.
  const lists =
    blockRows.length < SPARE
      ? listsSeenBy(await tenantLists(), me, new Set(blockRows.map((row) => row.memberId)))
      : homeListsOf(await flatBatch(env, viewerListStatements(db, values)));
  const { recent: recentRows, speech: speechRows, newbies: newbieRows, hot: hotRows, notes: noteRows, photos: photoRows } = lists;

  const meRow = meRows[0];
  if (!meRow) throw new Error("session member has no profile");
  const viewer: Viewer = toViewer(me, meRow);
  const summary = (row: SummaryRow): ProfileSummary => toProfileSummary(row, viewer);
  const hot = hotRows.map(summary);

  return {
    me: { ...toProfileSummary(meRow, viewer), introduction: meRow.introduction, pageViews: meRow.pageViews },
    checklist: {
      nickname: meRow.nickname.trim() !== "",
      introduction: meRow.introduction.trim() !== "",
      avatarUploaded: meRow.avator !== "",
      avatarQualified: canSeeAvatars(meRow),
    },
    coins: { mcoin: Number(coinRows[0]?.mcoin ?? 0), scoin: Number(coinRows[0]?.scoin ?? 0) },
    guestbook: { count: Number(guestbookRows[0]?.total ?? 0), unread: Number(guestbookRows[0]?.unread ?? 0) },
    flame: lists.flame ? { memberNo: lists.flame.simpleCode, profile: summary(lists.flame) } : null,
    reminders: reminderRows.map((r) => ({ idReminder: r.idReminder, title: r.title, description: r.description, remindAt: iso(r.remindAt)! })),
    today: utcDate(at),
    suggested: recentRows.filter((r) => !meRow.lookFor || r.multiGender === meRow.lookFor).slice(0, HOME_LIMITS.suggested).map(summary),
    related: recentRows.filter((r) => meRow.multiGender != null && r.lookFor === meRow.multiGender).slice(0, HOME_LIMITS.related).map(summary),
    latestSpeech: speechRows.map(summary),
    latestOnline: recentRows.slice(0, HOME_LIMITS.strip).map(summary),
    newbies: { total: lists.members, profiles: newbieRows.map(summary) },
    mostVisits: hot.slice(0, HOME_LIMITS.strip),
    visitors: visitorRows.map((row) => ({ simpleCode: row.simpleCode, nickname: row.nickname, dateUpd: iso(row.dateUpd)!, profile: summary(row) })),
    hotProfiles: hot,
    notes: noteRows.map((row) => ({ profile: summary(row), introduction: row.introduction })),
    photos: photoRows.map((photo) => ({
      idBanner: photo.idBanner,
      ...photoOf({ memberId: photo.memberId, image: photo.image, blurImage: photo.blurImage, blur: Boolean(photo.bannerBlur) }, viewer),
      width: photo.width,
      height: photo.height,
      memberNo: photo.memberNo,
      url: photo.url || null,
      rating: photo.ratingCount ? Math.round((photo.ratingSum / photo.ratingCount) * 10) / 10 : null,
      threadCount: photo.threadCount,
      profile: summary(photo),
    })),
    photoReview: {
      available: Number(meRow.reviewAvailable),
      ratedToday: Number(meRow.ratedToday),
      // §4: a finished session of 10 ratings today retires the prompt until tomorrow (UTC).
      done: Number(meRow.ratedToday) >= HOME_LIMITS.reviewSession,
    },
    unreadNotifications: Number(meRow.unreadNotifications),
  };
}

const homeStranger = strangerColumnsOf(profiles.strangerMedia, profiles.memberId);

type HomeValues = { me: string; projectCode: string; at: number; dayStart: number; dayEnd: number };
type ViewerRows = Awaited<ReturnType<typeof flatBatch<ReturnType<typeof viewerQueries>>>>;

/**
 * The viewer's own statements, read on every call. Rendered once per isolate (`compiled`): the home is the page
 * members open most, and drizzle rendered its statements anew on every call.
 */
function viewerQueries(db: Db, { me, projectCode, at, dayStart, dayEnd }: HomeValues) {
  return [
    // My profile, with the counters that are scalar subqueries on it (one statement, not three).
    db
      .select({
        ...profileSummaryColumns,
        introduction: profiles.introduction,
        pageViews: profiles.pageViews,
        safeMode: profiles.safeMode,
        // Whose media stays blurred for me (stranger-media.ts), read here rather than in a statement of its own.
        strangerMode: homeStranger.mode.as("stranger_media"),
        strangerFollows: homeStranger.follows.as("stranger_follows"),
        unreadNotifications: sql<number>`(select count(*) from ${notifications} where ${notifications.memberId} = ${me} and ${notifications.readAt} is null)`.as("unread_notifications"),
        // Photo review prompt: are there photos I have not rated (a bounded probe), and how many did I rate today?
        // (aliases avoid `b` and `m`, which the visibility helpers use).
        reviewAvailable: sql<number>`(select count(*) from (select 1 from banners bn join profiles p on p.member_id = bn.member_id
          where bn.project_code = ${projectCode} and bn.pickable = 1 and bn.member_id <> ${me} and p.blocked = 0 and p.closed = 0
            and not exists (select 1 from banner_ratings r where r.member_id = ${me} and r.id_banner = bn.id_banner)
            and ${notBlockedWith(me, sql`bn.member_id`, at)}
          order by bn.pickable desc, bn.created_at desc limit ${HOME_LIMITS.reviewSession}))`.as("review_available"),
        ratedToday: sql<number>`(select count(*) from banner_ratings where member_id = ${me} and created_at >= ${dayStart})`.as("rated_today"),
      })
      .from(profiles)
      .where(and(eq(profiles.memberId, me), eq(profiles.projectCode, projectCode))),
    db
      .select({
        mcoin: sql<number>`coalesce(sum(case when ${coinLedger.currency} = 'mcoin' then ${coinLedger.amount} else 0 end), 0)`.as("mcoin"),
        scoin: sql<number>`coalesce(sum(case when ${coinLedger.currency} = 'scoin' then ${coinLedger.amount} else 0 end), 0)`.as("scoin"),
      })
      .from(coinLedger)
      .where(eq(coinLedger.memberId, me)),
    // §9: reminders only for today's UTC date.
    db
      .select()
      .from(chatReminders)
      .where(and(eq(chatReminders.memberId, me), sql`${chatReminders.remindAt} >= ${dayStart}`, sql`${chatReminders.remindAt} < ${dayEnd}`))
      .orderBy(chatReminders.remindAt)
      .limit(20),
    // Guestbook tile: entries by members I have not blocked or muted (as the guestbook itself counts them).
    db
      .select({
        total: sql<number>`count(*)`.as("total"),
        unread: sql<number>`coalesce(sum(case when ${guestbookEntries.readAt} is null then 1 else 0 end), 0)`.as("unread"),
      })
      .from(guestbookEntries)
      .where(
        and(
          eq(guestbookEntries.ownerMemberId, me),
          eq(guestbookEntries.projectCode, projectCode),
          notBlockedWith(me, guestbookEntries.authorMemberId, at),
          notMutedBy(me, guestbookEntries.authorMemberId, at),
        ),
      ),
    // Recent visitors (§2 drawer): newest first; visitors without nickname hidden (§5).
    db
      .select({ ...profileSummaryColumns, dateUpd: visitors.dateUpd })
      .from(visitors)
      .innerJoin(profiles, eq(profiles.memberId, visitors.visitorId))
      .where(and(eq(visitors.memberId, me), ne(profiles.nickname, ""), eq(profiles.blocked, false), notBlockedWith(me, visitors.visitorId, at)))
      .orderBy(desc(visitors.dateUpd))
      .limit(HOME_LIMITS.visitors),
    // The members I may not see in the tenant's lists: a live block either way (at most SPARE are needed).
    blockedWith(db, me, at).limit(SPARE),
  ] as const;
}
const homeStatements = compiled<HomeValues, Db, ReturnType<typeof viewerQueries>>(viewerQueries);
const VIEWER_STATEMENTS = 6;
