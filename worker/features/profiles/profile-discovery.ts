/** Discovery lists of profiles (§7 Profile, §5 hiding rules, §9 page sizes): each reads one partial index in order. */
import { and, desc, eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { nicknameContains } from "../members/nickname-search";
import { getDb } from "../../db/client";
import { LISTABLE_PROFILE, profiles, projectCounters } from "../../db/schema";
import type { ProfileSummary } from "../../contract/profile-summary";
import { notBlockedWith } from "../members/visibility";
import { profileSummaryColumns, toProfileSummary, type Viewer } from "../members/profile-summary";

export type ListOptions = { where?: SQL; orderBy: SQL[]; limit: number; excludeSelf?: boolean };

/** The drizzle query behind every discovery list (exported so a test can measure its D1 rows_read). */
export function listProfilesQuery(env: Env, projectCode: string, viewer: Viewer, options: ListOptions) {
  return getDb(env)
    .select(profileSummaryColumns)
    .from(profiles)
    .where(
      and(
        eq(profiles.projectCode, projectCode),
        sql.raw(LISTABLE_PROFILE),
        options.where,
        options.excludeSelf && viewer ? ne(profiles.memberId, viewer.memberId) : undefined,
        notBlockedWith(viewer?.memberId, profiles.memberId),
      ),
    )
    .orderBy(...options.orderBy)
    .limit(options.limit);
}

export async function listProfiles(env: Env, projectCode: string, viewer: Viewer, options: ListOptions): Promise<ProfileSummary[]> {
  const rows = await listProfilesQuery(env, projectCode, viewer, options);
  return rows.map((row) => toProfileSummary(row, viewer));
}

export const introWhere = sql`length(${profiles.introduction}) > 20`;

/** Each §7 list as filter + order over its partial index (routes and the rows_read test share these). */
export const discovery = {
  hot: (limit: number): ListOptions => ({ orderBy: [desc(profiles.pageViews)], limit }),
  intro: (limit: number): ListOptions => ({ where: introWhere, orderBy: [desc(profiles.updatedAt)], limit }),
  // Seven members who wrote an introduction in the last seven days.
  introSeven: (at = Date.now()): ListOptions => ({
    where: sql`${introWhere} and ${profiles.updatedAt} > ${at - 7 * 86_400_000}`,
    orderBy: [desc(profiles.updatedAt)],
    limit: 7,
  }),
  lastChat: (limit: number): ListOptions => ({ where: isNotNull(profiles.lastChatAt), orderBy: [desc(profiles.lastChatAt)], limit }),
  lastAccess: (limit: number): ListOptions => ({ where: isNotNull(profiles.lastAccess), orderBy: [desc(profiles.lastAccess)], limit }),
  newest: (limit: number): ListOptions => ({ orderBy: [desc(profiles.createdAt)], limit }),
  // Members whose birthday (month-day) is today in UTC.
  birthday: (limit: number, at = Date.now()): ListOptions => ({
    where: sql`substr(${profiles.birthday}, 6) = ${new Date(at).toISOString().slice(5, 10)}`,
    // Ordered by the indexed expression so SQLite reads the birthday index, not the last-access one.
    orderBy: [sql`substr(${profiles.birthday}, 6)`],
    limit,
  }),
  multiGender: (genders: number[], limit: number, excludeSelf = false): ListOptions => ({
    where: inArray(profiles.multiGender, genders),
    orderBy: [desc(profiles.multiGender), desc(profiles.lastAccess)],
    limit,
    excludeSelf,
  }),
  zodiac: (sign: string, limit: number): ListOptions => ({ where: eq(profiles.zodiacSign, sign), orderBy: [desc(profiles.zodiacSign), desc(profiles.lastAccess)], limit }),
  related: (language: string, lookFor: number, limit: number): ListOptions => ({
    where: sql`${profiles.language} = ${language} and ${profiles.lookFor} = ${lookFor}`,
    orderBy: [desc(profiles.language), desc(profiles.lookFor), desc(profiles.lastAccess)],
    limit,
    excludeSelf: true,
  }),
  search: (projectCode: string, keyword: string, limit: number): ListOptions => ({
    where: nicknameContains(projectCode, keyword, limit, profiles.idProfile, profiles.nickname),
    // Newest members first, the order the trigram index hands them over in (no sort, no walk of another index).
    orderBy: [desc(profiles.idProfile)],
    limit,
  }),
};

// A Map, not an object literal: the locale comes from the URL, and "__proto__" or "constructor" must find nothing.
const LANGUAGE_OF_LOCALE = new Map([["en", "en"], ["en-us", "en"], ["ja", "ja"], ["ja-jp", "ja"], ["zh-cn", "zh-CN"], ["zh-tw", "zh-TW"]]);
export const languageOfLocale = (locale: string | undefined) => (locale ? LANGUAGE_OF_LOCALE.get(locale.toLowerCase()) ?? null : null);

/** Hot: most viewed; with a locale, members of that language come first. */
export async function hotProfiles(env: Env, projectCode: string, viewer: Viewer, pageSize: number, locale?: string) {
  const language = languageOfLocale(locale);
  const rows = await listProfiles(env, projectCode, viewer, discovery.hot(language ? Math.min(pageSize * 2, 500) : pageSize));
  if (!language) return rows;
  const languages = await languagesOf(env, rows.map((r) => r.idProfile));
  const matching = rows.filter((r) => languages.get(r.idProfile) === language);
  const others = rows.filter((r) => languages.get(r.idProfile) !== language);
  return [...matching, ...others].slice(0, pageSize);
}

async function languagesOf(env: Env, ids: number[]) {
  const map = new Map<number, string | null>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await getDb(env)
      .select({ idProfile: profiles.idProfile, language: profiles.language })
      .from(profiles)
      .where(inArray(profiles.idProfile, ids.slice(i, i + 90)));
    for (const r of rows) map.set(r.idProfile, r.language);
  }
  return map;
}


/** §3 lookFor → the multiGender a member is looking for (1 master, 2 mistress, 3/4 slave, 5/6 switch). */
export const GENDERS_FOR_LOOK_FOR: Record<number, number[]> = { 1: [1], 2: [2], 3: [3], 4: [4], 5: [5], 6: [6] };

/** All-profiles filters (§2): 1 male S, 3 male M, 2 female S, 4 female M, SKYPE, TWITTER; random order. */
export async function allProfiles(env: Env, projectCode: string, viewer: Viewer, filter: string | undefined, pageSize: number) {
  let options: ListOptions;
  if (filter === "skype") options = { where: sql`${profiles.skypeId} <> ''`, orderBy: [desc(profiles.lastAccess)], limit: pageSize };
  else if (filter === "twitter") options = { where: sql`${profiles.twitterId} <> ''`, orderBy: [desc(profiles.lastAccess)], limit: pageSize };
  else if (filter) options = discovery.multiGender([Number(filter)], pageSize);
  else options = discovery.lastAccess(pageSize);
  const rows = await listProfiles(env, projectCode, viewer, options);
  // Random order (§2): a shuffle of the indexed page.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows;
}

export async function membersCount(env: Env, projectCode: string) {
  const row = await getDb(env).select({ n: projectCounters.members }).from(projectCounters).where(eq(projectCounters.projectCode, projectCode)).get();
  return row?.n ?? 0;
}
