import { and, desc, eq, gt, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import type { flatBatch } from "../../db/flat-batch";
import { LISTABLE_PROFILE, banners, profiles, projectCounters } from "../../db/schema";
import { HOME_LIMITS } from "../../contract/home";
import { profileSummaryColumns } from "../members/profile-summary";
import { notBlockedWith } from "../members/visibility";
import { IsolateCache, ttlMsFromEnv } from "../../lib/isolate-cache";

/**
 * The dashboard's tenant-wide lists (§2: latest online with suggested and related, latest speech, newbies, most
 * visits and hot profiles, hot discussion, the photo masonry, the flame owner). They are the same for every member
 * of a tenant but for two viewer rules (§5): never me, never a member with a live block either way. So they are
 * read once per tenant and isolate and kept for a few seconds (HOME_LISTS_TTL_SECONDS), each with SPARE rows
 * beyond its length, and the viewer rules are applied per call with the viewer's blocks read fresh in the same
 * round trip: a block or an unblock shows at once. A viewer with more blocks than the spare rows can absorb gets
 * the lists read with the rules in SQL, as before. Measured (tests/bench): the tenant lists were some two
 * thirds of the dashboard's D1 time; the home call went from ~40% to ~70% of the one-query baseline's requests/s.
 */

/** Rows each cached list holds beyond its length: the viewer plus up to SPARE - 1 blocked members drop out. */
export const SPARE = 20;
/** How many recently active members "latest online", suggested and related are taken from (one read). */
export const MATCH_WINDOW = 100;
const DEFAULT_TTL_SECONDS = 10;

type ListValues = { me: string; projectCode: string; at: number };

/**
 * The list statements, either for the whole tenant (`viewer` false: SPARE more rows, no viewer rules) or with the
 * viewer rules in SQL (`viewer` true). Two shapes, each rendered once per isolate (`compiled`).
 */
function listQueries(db: Db, { me, projectCode, at }: ListValues, viewer: boolean) {
  const spare = viewer ? 0 : SPARE;
  const seenBy = (column: typeof profiles.memberId, includingMe: boolean) =>
    viewer ? and(includingMe ? undefined : ne(column, me), notBlockedWith(me, column, at)) : undefined;
  // §5: lists hide members lacking an avatar, unqualified, blurred or blocked.
  const listed = (...more: (SQL | undefined)[]) =>
    and(
      eq(profiles.projectCode, projectCode),
      // Verbatim text of the partial indexes' condition, so SQLite reads those indexes (migration 0002).
      sql.raw(LISTABLE_PROFILE),
      seenBy(profiles.memberId, false),
      ...more,
    );
  const summaries = () => db.select(profileSummaryColumns).from(profiles);
  return [
    // The most recently active members: "latest online" is its head; suggested (the role I look for) and related
    // (members looking for my role) are picked from it, so none of the three scans the tenant.
    summaries().where(listed(isNotNull(profiles.lastAccess))).orderBy(desc(profiles.lastAccess)).limit(MATCH_WINDOW + spare),
    summaries().where(listed(isNotNull(profiles.lastChatAt))).orderBy(desc(profiles.lastChatAt)).limit(HOME_LIMITS.strip + spare),
    summaries().where(listed()).orderBy(desc(profiles.createdAt)).limit(HOME_LIMITS.strip + spare),
    // Members of the tenant: the counter row the profiles triggers keep (migration 0008), not a count.
    db.select({ n: projectCounters.members }).from(projectCounters).where(eq(projectCounters.projectCode, projectCode)),
    // Hot profiles (§9: 48 on home) by page views; "most visits" is the head of the same list.
    summaries().where(listed()).orderBy(desc(profiles.pageViews), desc(profiles.idProfile)).limit(HOME_LIMITS.hotProfiles + spare),
    // §9: hot discussion cards need an introduction of at least 21 characters; a closed member's introduction is
    // not shown to the tenant (profile-access.ts).
    db
      .select({ ...profileSummaryColumns, introduction: profiles.introduction })
      .from(profiles)
      .where(listed(sql`length(trim(${profiles.introduction})) >= ${HOME_LIMITS.noteIntroMin}`, gt(profiles.lastChatAt, 0), eq(profiles.closed, false)))
      .orderBy(desc(profiles.lastChatAt))
      .limit(HOME_LIMITS.notes + spare),
    // Flame owner: the newest hand-over of the tenant (shown to its holder even when listed rules would hide it).
    db
      .select(profileSummaryColumns)
      .from(profiles)
      .where(
        and(
          eq(profiles.projectCode, projectCode),
          sql`${profiles.memberId} = (select holder_member_id from flame_passes where project_code = ${projectCode} order by id_flame_pass desc limit 1)`,
          viewer ? sql`(${profiles.memberId} = ${me} or ${notBlockedWith(me, profiles.memberId, at)})` : undefined,
        ),
      ),
    // Photo masonry: the tenant's newest pickable photos (my own included).
    db
      // D1 batch results are keyed by column name, so no column may repeat (banners and profiles both have
      // member_id and blur): the banner's own columns are picked and its blur aliased.
      .select({
        ...profileSummaryColumns,
        idBanner: banners.idBanner,
        image: banners.image,
        blurImage: banners.blurImage,
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
      // A closed member's photos stay on their profile, for those it opens to (profile-access.ts).
      .where(and(eq(banners.projectCode, projectCode), eq(banners.pickable, true), eq(profiles.blocked, false), eq(profiles.closed, false), seenBy(profiles.memberId, true)))
      .orderBy(desc(banners.pickable), desc(banners.createdAt))
      .limit(HOME_LIMITS.photoGridMax + spare),
  ] as const;
}

type Queries = ReturnType<typeof listQueries>;
/** The tenant's lists, without viewer rules and with spare rows: what is cached. */
export const tenantListStatements = compiled<ListValues, Db, Queries>((db, v) => listQueries(db, v, false));
/** The lists with the viewer rules in SQL: for a viewer with more blocks than the spare rows absorb. */
export const viewerListStatements = compiled<ListValues, Db, Queries>((db, v) => listQueries(db, v, true));

export type ListRows = Awaited<ReturnType<typeof flatBatch<Queries>>>;

export type HomeLists = {
  recent: ListRows[0];
  speech: ListRows[1];
  newbies: ListRows[2];
  members: number;
  hot: ListRows[4];
  notes: ListRows[5];
  flame: ListRows[6][number] | null;
  photos: ListRows[7];
};

export function homeListsOf([recent, speech, newbies, members, hot, notes, flame, photos]: ListRows): HomeLists {
  return { recent, speech, newbies, members: Number(members[0]?.n ?? 0), hot, notes, flame: flame[0] ?? null, photos };
}

/**
 * The lists as `me` may see them: without me (but for photos and the flame), without members with a live block
 * either way, cut to their lengths. `blocked` must be complete, which holds when it has fewer than SPARE members.
 */
export function listsSeenBy(lists: HomeLists, me: string, blocked: ReadonlySet<string>): HomeLists {
  const seen = <R extends { memberId: string }>(rows: R[], length: number, includingMe = false) =>
    rows.filter((row) => !blocked.has(row.memberId) && (includingMe || row.memberId !== me)).slice(0, length);
  return {
    recent: seen(lists.recent, MATCH_WINDOW),
    speech: seen(lists.speech, HOME_LIMITS.strip),
    newbies: seen(lists.newbies, HOME_LIMITS.strip),
    members: lists.members,
    hot: seen(lists.hot, HOME_LIMITS.hotProfiles),
    notes: seen(lists.notes, HOME_LIMITS.notes),
    flame: lists.flame && !blocked.has(lists.flame.memberId) ? lists.flame : null,
    photos: seen(lists.photos, HOME_LIMITS.photoGridMax, true),
  };
}

/** Seconds a tenant's lists are kept per isolate (0: read on every call, as the API tests do). */
export function listsTtlMs(env: Env): number {
  return ttlMsFromEnv(env.HOME_LISTS_TTL_SECONDS, DEFAULT_TTL_SECONDS);
}

/** Tenants whose lists one isolate keeps at once. */
const MAX_KEPT_TENANTS = 1_000;
const keptByTenant = new IsolateCache<string, Promise<HomeLists>>({ maxEntries: MAX_KEPT_TENANTS });

/** The tenant's lists while younger than `ttl`; concurrent calls share one read in progress. */
export function keptLists(projectCode: string, now: number, ttl: number): Promise<HomeLists> | undefined {
  return keptByTenant.get(projectCode, now, ttl);
}

/** Keeps a read of the tenant's lists (in progress or done), dropping stale ones; a failed read is forgotten. */
export function keepLists(projectCode: string, now: number, ttl: number, lists: Promise<HomeLists>) {
  keptByTenant.sweep(now, ttl);
  keptByTenant.set(projectCode, lists, now);
  lists.catch(() => keptByTenant.delete(projectCode, lists));
}
