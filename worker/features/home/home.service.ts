import { and, desc, eq, gt, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { LISTABLE_PROFILE, banners, chatReminders, coinLedger, guestbookEntries, notifications, profiles, projectCounters, visitors } from "../../db/schema";
import { HOME_LIMITS, type HomeDashboard } from "../../contract/home";
import type { ProfileSummary } from "../../contract/profile-summary";
import type { SessionMember } from "../session/session.service";
import { profileSummaryColumns, toProfileSummary, type Viewer } from "../profiles/profile-summary";
import { notBlockedWith, notMutedBy } from "../social/visibility";
import { DAY, iso, utcDate } from "../../lib/time";

/** How many recently active members "latest online", suggested and related are taken from (one read). */
const MATCH_WINDOW = 100;

type SummaryRow = Parameters<typeof toProfileSummary>[0];

/**
 * The whole §2 dashboard in ONE `db.batch` (one D1 round trip): every card's rows come from a bounded,
 * indexed select, so the cost does not grow with the number of members (tests/api/home.test.ts).
 */
export async function loadDashboard(env: Env, member: SessionMember, projectCode: string): Promise<HomeDashboard> {
  const db = getDb(env);
  const me = member.memberId;
  const at = Date.now();

  const dayStart = Date.parse(`${utcDate(at)}T00:00:00.000Z`);
  const [meRows, coinRows, unreadRows, recentRows, speechRows, newbieRows, newbieTotalRows, hotRows, noteRows, reminderRows, guestbookRows, flameRows, visitorRows, photoRows, reviewRows] =
    // Mapped by flatBatch: some 230 rows, where drizzle's per-field mapping was a sixth of the call's CPU.
    await flatBatch(env, homeStatements(db, { me, projectCode, at, dayStart, dayEnd: dayStart + DAY }));

  const meRow = meRows[0];
  if (!meRow) throw new Error("session member has no profile");
  const viewer: Viewer = { memberId: me, canSeeAvatars: Boolean(meRow.avator && meRow.qualify) };
  const summary = (row: SummaryRow): ProfileSummary => toProfileSummary(row, viewer);
  const hot = hotRows.map(summary);

  return {
    me: { ...toProfileSummary(meRow, viewer), introduction: meRow.introduction, pageViews: meRow.pageViews },
    checklist: {
      nickname: meRow.nickname.trim() !== "",
      introduction: meRow.introduction.trim() !== "",
      avatarUploaded: meRow.avator !== "",
      avatarQualified: meRow.avator !== "" && meRow.qualify,
    },
    coins: { mcoin: Number(coinRows[0]?.mcoin ?? 0), scoin: Number(coinRows[0]?.scoin ?? 0) },
    guestbook: { count: Number(guestbookRows[0]?.total ?? 0), unread: Number(guestbookRows[0]?.unread ?? 0) },
    flame: flameRows[0] ? { memberNo: flameRows[0].simpleCode, profile: summary(flameRows[0]) } : null,
    reminders: reminderRows.map((r) => ({ idReminder: r.idReminder, title: r.title, description: r.description, remindAt: iso(r.remindAt)! })),
    today: utcDate(at),
    suggested: recentRows.filter((r) => !meRow.lookFor || r.multiGender === meRow.lookFor).slice(0, HOME_LIMITS.suggested).map(summary),
    related: recentRows.filter((r) => meRow.multiGender != null && r.lookFor === meRow.multiGender).slice(0, HOME_LIMITS.related).map(summary),
    latestSpeech: speechRows.map(summary),
    latestOnline: recentRows.slice(0, HOME_LIMITS.strip).map(summary),
    newbies: { total: Number(newbieTotalRows[0]?.n ?? 0), profiles: newbieRows.map(summary) },
    mostVisits: hot.slice(0, HOME_LIMITS.strip),
    visitors: visitorRows.map((row) => ({ simpleCode: row.simpleCode, nickname: row.nickname, dateUpd: iso(row.dateUpd)!, profile: summary(row) })),
    hotProfiles: hot,
    notes: noteRows.map((row) => ({ profile: summary(row), introduction: row.introduction })),
    photos: photoRows.map((photo) => ({
      idBanner: photo.idBanner,
      image: photo.image,
      width: photo.width,
      height: photo.height,
      memberNo: photo.memberNo,
      url: photo.url || null,
      blur: Boolean(photo.bannerBlur),
      rating: photo.ratingCount ? Math.round((photo.ratingSum / photo.ratingCount) * 10) / 10 : null,
      threadCount: photo.threadCount,
      profile: summary(photo),
    })),
    photoReview: {
      available: Number(reviewRows[0]?.available ?? 0),
      ratedToday: Number(reviewRows[0]?.ratedToday ?? 0),
      // §4: a finished session of 10 ratings today retires the prompt until tomorrow (UTC).
      done: Number(reviewRows[0]?.ratedToday ?? 0) >= HOME_LIMITS.reviewSession,
    },
    unreadNotifications: Number(unreadRows[0]?.n ?? 0),
  };
}

type HomeValues = { me: string; projectCode: string; at: number; dayStart: number; dayEnd: number };

/**
 * The dashboard's statements. Rendered once per isolate (`compiled`): the home is the page members open most,
 * and drizzle rendered its 15 statements anew on every call.
 */
function homeQueries(db: Db, { me, projectCode, at, dayStart, dayEnd }: HomeValues) {
  // §5: lists hide members lacking an avatar, unqualified, blurred or blocked; never me; never a block either way.
  const listed = (...more: (SQL | undefined)[]) =>
    and(
      eq(profiles.projectCode, projectCode),
      // Verbatim text of the partial indexes' condition, so SQLite reads those indexes (migration 0002).
      sql.raw(LISTABLE_PROFILE),
      ne(profiles.memberId, me),
      notBlockedWith(me, profiles.memberId, at),
      ...more,
    );
  const summaries = () => db.select(profileSummaryColumns).from(profiles);
  const mine = db
    .select({ ...profileSummaryColumns, introduction: profiles.introduction, pageViews: profiles.pageViews })
    .from(profiles)
    .where(and(eq(profiles.memberId, me), eq(profiles.projectCode, projectCode)));
  return [
      mine,
    db
      .select({
        mcoin: sql<number>`coalesce(sum(case when ${coinLedger.currency} = 'mcoin' then ${coinLedger.amount} else 0 end), 0)`.as("mcoin"),
        scoin: sql<number>`coalesce(sum(case when ${coinLedger.currency} = 'scoin' then ${coinLedger.amount} else 0 end), 0)`.as("scoin"),
      })
      .from(coinLedger)
      .where(eq(coinLedger.memberId, me)),
    db
      .select({ n: sql<number>`count(*)`.as("n") })
      .from(notifications)
      .where(and(eq(notifications.memberId, me), isNull(notifications.readAt))),
    // The most recently active members: "latest online" is its head; suggested (the role I look for,
    // lookFor n ↔ multiGender n) and related (members looking for my role) are picked from it below, so
    // none of the three scans the tenant and the window is read once.
    summaries().where(listed(isNotNull(profiles.lastAccess))).orderBy(desc(profiles.lastAccess)).limit(MATCH_WINDOW),
    summaries().where(listed(isNotNull(profiles.lastChatAt))).orderBy(desc(profiles.lastChatAt)).limit(HOME_LIMITS.strip),
    summaries().where(listed()).orderBy(desc(profiles.createdAt)).limit(HOME_LIMITS.strip),
    // Members of the tenant: the counter row the profiles triggers keep (migration 0008), not a count.
    db.select({ n: projectCounters.members }).from(projectCounters).where(eq(projectCounters.projectCode, projectCode)),
    // Hot profiles (§9: 48 on home) by page views; "most visits" is the head of the same list.
    summaries().where(listed()).orderBy(desc(profiles.pageViews), desc(profiles.idProfile)).limit(HOME_LIMITS.hotProfiles),
    // §9: hot discussion cards need an introduction of at least 21 characters.
    db
      .select({ ...profileSummaryColumns, introduction: profiles.introduction })
      .from(profiles)
      .where(listed(sql`length(trim(${profiles.introduction})) >= ${HOME_LIMITS.noteIntroMin}`, gt(profiles.lastChatAt, 0)))
      .orderBy(desc(profiles.lastChatAt))
      .limit(HOME_LIMITS.notes),
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
    // Flame owner: the newest hand-over of the tenant, hidden when blocked either way.
    db
      .select(profileSummaryColumns)
      .from(profiles)
      .where(
        and(
          eq(profiles.projectCode, projectCode),
          sql`${profiles.memberId} = (select holder_member_id from flame_passes where project_code = ${projectCode} order by id_flame_pass desc limit 1)`,
          sql`(${profiles.memberId} = ${me} or ${notBlockedWith(me, profiles.memberId, at)})`,
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
    // Photo masonry: the tenant's newest pickable photos of members I may see.
    db
      // D1 batch results are keyed by column name, so no column may repeat (banners and profiles both have
      // member_id and blur): the banner's own columns are picked and its blur aliased.
      .select({
        ...profileSummaryColumns,
        idBanner: banners.idBanner,
        image: banners.image,
        width: banners.width,
        height: banners.height,
        memberNo: banners.memberNo,
        url: banners.url,
        bannerBlur: sql<number>`${banners.blur}`.as("banner_blur"),
        ratingSum: banners.ratingSum,
        ratingCount: banners.ratingCount,
        threadCount: banners.threadCount,
      })
      .from(banners)
      .innerJoin(profiles, eq(profiles.memberId, banners.memberId))
      .where(and(eq(banners.projectCode, projectCode), eq(banners.pickable, true), eq(profiles.blocked, false), notBlockedWith(me, banners.memberId, at)))
      .orderBy(desc(banners.pickable), desc(banners.createdAt))
      .limit(HOME_LIMITS.photoGridMax),
    // Photo review prompt: are there photos I have not rated (a bounded probe), and how many did I rate today?
    // (aliases avoid `b` and `m`, which the visibility helpers use; two scalar subqueries, selected on my own profile row so the batch stays one typed select).
    db
      .select({
        available: sql<number>`(select count(*) from (select 1 from banners bn join profiles p on p.member_id = bn.member_id
          where bn.project_code = ${projectCode} and bn.pickable = 1 and bn.member_id <> ${me} and p.blocked = 0
            and not exists (select 1 from banner_ratings r where r.member_id = ${me} and r.id_banner = bn.id_banner)
            and ${notBlockedWith(me, sql`bn.member_id`, at)}
          order by bn.pickable desc, bn.created_at desc limit ${HOME_LIMITS.reviewSession}))`.as("available"),
        ratedToday: sql<number>`(select count(*) from banner_ratings where member_id = ${me} and created_at >= ${dayStart})`.as("rated_today"),
      })
      .from(profiles)
      .where(eq(profiles.memberId, me)),
  ] as const;
}
const homeStatements = compiled<HomeValues, Db, ReturnType<typeof homeQueries>>(homeQueries);
