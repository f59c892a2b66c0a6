import { and, eq, getTableName, sql, type SQL } from "drizzle-orm";
import { rowJson } from "../../db/row-json";
import type { alias } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/client";
import { inJson } from "../../db/in-list";
import { profiles } from "../../db/schema";
import type { ProfileSummary } from "../../contract/profile-summary";
import { iso } from "../../lib/time";
import { keptIn } from "../../lib/kept";
import { strangerBlurs, strangerColumnsOf, strangerRuleOf, type StrangerRule } from "./stranger-media";
import { canSeeAvatars } from "./avatar-rights";

/** Columns to select for a ProfileSummary from `profiles` or an alias of it (a second join of the table). */
type ProfilesAlias = ReturnType<typeof alias<typeof profiles, string>>;
export const summaryColumnsOf = <T extends typeof profiles | ProfilesAlias>(t: T) => ({
  idProfile: t.idProfile,
  memberId: t.memberId,
  simpleCode: t.simpleCode,
  nickname: t.nickname,
  avator: t.avator,
  avatorBlur: t.avatorBlur,
  qualify: t.qualify,
  blur: t.blur,
  blocked: t.blocked,
  multiGender: t.multiGender,
  lookFor: t.lookFor,
  kycStatus: t.kycStatus,
  closed: t.closed,
  isRainbow: t.isRainbow,
  lastAccess: t.lastAccess,
});

/** Columns to select for a ProfileSummary; spread into any drizzle select that joins `profiles`. */
export const profileSummaryColumns = summaryColumnsOf(profiles);

/**
 * A joined card as ONE selected value (`json_object`), null when the join found no profile. drizzle decodes every
 * selected field of every row on its own, and a page of 100 chat messages with two 14-column cards spent 40% of
 * its CPU there (API benchmark); one JSON value per card is parsed natively. One column also keeps D1 batch
 * results (keyed by column name) from merging the two cards' same-named columns.
 */
export function summaryJsonOf<T extends typeof profiles | ProfilesAlias>(t: T) {
  return sql<string | null>`${sql.raw(cardSqlOf(t))}`.mapWith((value: string) => reviveSummary(JSON.parse(value)));
}

/** The card's SQL text for `t` (rendered once per table), for selects that nest it in their own JSON row. */
export function cardSqlOf<T extends typeof profiles | ProfilesAlias>(t: T): string {
  return keptIn(cardSql, t, () => {
    const card = rowJson(getTableName(t), summaryColumnsOf(t));
    return `case when "${getTableName(t)}"."${t.memberId.name}" is null then null else ${card.sql} end`;
  });
}
const cardSql = new WeakMap<object, string>();

/** A JSON boolean written by SQLite (`json('true')` is constant: SQLite parses it once per statement). */
export const jsonBool = (value: SQL) => sql`iif(${value}, json('true'), json('false'))`;

type SummaryColumnKey = keyof ReturnType<typeof summaryColumnsOf>;

/** A card's columns selected under `prefix`-ed names, for a subquery whose outer select writes the card (`summaryViewSqlFrom`). */
export function summaryColumnsAs<T extends typeof profiles | ProfilesAlias>(t: T, prefix: string) {
  return Object.fromEntries(
    Object.entries(summaryColumnsOf(t)).map(([key, column]) => [`${prefix}${key}`, sql`${column}`.as(`${prefix}${column.name}`)]),
  ) as Record<`${string}${SummaryColumnKey}`, SQL.Aliased>;
}

/**
 * SQL writing the ProfileSummary JSON that `toProfileSummary` (then chat's `summaryFor`) makes of a row, for
 * lists whose JSON goes to the client as SQLite wrote it (chat pages): NULL without a profile; where `hide` holds
 * (§6: a viewer without a qualifying avatar), no avatar and blurred; else where `shroud` holds (a visitor, a
 * safe-mode viewer, a `blur` member: `avatarOf`), the blurred rendition. Read from the `summaryColumnsAs(t, prefix)`
 * columns of `subquery` and written in the select that embeds it: a JSON value keeps its type through CASE but not
 * through a subquery's column, where it would be parsed again (chat page: a third of its SQLite time went to cards
 * written in the subquery). tests/api/chat-page.test.ts keeps the two equal.
 */
export function summaryViewSqlFrom(subquery: string, prefix: string, hide: SQL, shroud: SQL): SQL {
  const ref = (key: SummaryColumnKey) => `"${subquery}"."${prefix}${profileSummaryColumns[key].name}"`;
  const c = (key: SummaryColumnKey) => sql.raw(ref(key));
  return sql`case when ${c("memberId")} is null then null else json_object(
    'idProfile', ${c("idProfile")}, 'simpleCode', ${c("simpleCode")}, 'nickname', ${c("nickname")},
    'avator', case when ${hide} then '' when ${c("avator")} = '' then '' when ${shroud} then ${c("avatorBlur")} else ${c("avator")} end,
    'qualify', ${jsonBool(c("qualify"))},
    'blur', ${jsonBool(sql`${c("blur")} or ${hide} or (${shroud} and ${c("avator")} <> '')`)}, 'blocked', ${jsonBool(c("blocked"))}, 'multiGender', ${c("multiGender")},
    'lookFor', ${c("lookFor")}, 'kycStatus', ${c("kycStatus")}, 'closed', ${jsonBool(c("closed"))}, 'isRainbow', ${jsonBool(c("isRainbow"))},
    'lastAccess', ${sql.raw(lastAccessDaySql(ref("lastAccess")))}) end`;
}

/** A card parsed from `summaryJsonOf`/`cardSqlOf` JSON, its booleans restored. */
export const reviveSummary = (card: Record<string, unknown>): SummaryRow => summaryJson.revive<SummaryRow>(card);
const summaryJson = rowJson("profiles", summaryColumnsOf(profiles));

export type SummaryRow = {
  idProfile: number;
  memberId: string;
  simpleCode: string;
  nickname: string;
  avator: string;
  avatorBlur: string;
  qualify: boolean;
  blur: boolean;
  blocked: boolean;
  multiGender: number | null;
  lookFor: number;
  kycStatus: number;
  closed: boolean;
  isRainbow: boolean;
  lastAccess: number | null;
};

/**
 * Who looks (null: a visitor) and what decides which avatars they get: `canSeeAvatars` (§6: a qualifying avatar of
 * their own), `safeMode` (§4 My profile, stored on the profile) and `strangerMedia` (whose media stays blurred for
 * them, stranger-media.ts; absent: off).
 */
export type Viewer = { memberId: string; canSeeAvatars: boolean; safeMode: boolean; strangerMedia?: StrangerRule } | null;

/**
 * The avatar a viewer gets of a card (README Decisions "Visitors get a blurred rendition, never the original"). The
 * owner: their own. A member without a qualifying avatar (§6): none, blurred. A visitor, a safe-mode viewer, or anyone
 * looking at a `blur` member, or a viewer whose stranger-media setting covers this member (`strangerBlurs`): the
 * blurred rendition only (none where the upload has no rendition), flagged blurred so pages keep blurring it.
 * Everyone else: the original. `summaryViewSqlFrom` is the same rule in SQL.
 */
export function avatarOf(card: Pick<SummaryRow, "memberId" | "avator" | "avatorBlur" | "blur">, viewer: Viewer): { avator: string; blur: boolean } {
  if (viewer?.memberId === card.memberId) return { avator: card.avator, blur: card.blur };
  if (viewer && !viewer.canSeeAvatars) return { avator: "", blur: true };
  if (!card.avator) return { avator: "", blur: card.blur };
  if (!viewer || viewer.safeMode || card.blur || strangerBlurs(viewer, card.memberId)) return { avator: card.avatorBlur, blur: true };
  return { avator: card.avator, blur: card.blur };
}

export function toProfileSummary(row: SummaryRow, viewer: Viewer): ProfileSummary {
  const { avator, blur } = avatarOf(row, viewer);
  return {
    idProfile: row.idProfile,
    simpleCode: row.simpleCode,
    nickname: row.nickname,
    avator,
    qualify: row.qualify,
    blur,
    blocked: row.blocked,
    multiGender: row.multiGender,
    lookFor: row.lookFor,
    kycStatus: row.kycStatus,
    closed: row.closed,
    isRainbow: row.isRainbow,
    lastAccess: lastAccessDay(row.lastAccess),
  };
}

/**
 * Last access leaves the server as its UTC day only, to everyone (SECURITY.md "What a visitor sees"): the pages show
 * no time, and an exact time tells a watcher when someone is up. `lastAccessDaySql` is the same in SQL.
 */
export const lastAccessDay = (at: number | null | undefined): string | null => (at == null ? null : `${iso(at)!.slice(0, 10)}T00:00:00.000Z`);
const lastAccessDaySql = (ref: string) => `case when ${ref} is null then null else strftime('%Y-%m-%dT00:00:00.000Z', ${ref} / 1000, 'unixepoch') end`;

/** The query behind `profileSummaries`, for callers that put it in a D1 batch with their other reads. */
export function profileSummariesQuery(env: Env, projectCode: string, memberIds: readonly string[]) {
  return getDb(env)
    .select(profileSummaryColumns)
    .from(profiles)
    // Unary `+` keeps SQLite from choosing a project_code index (which reads the whole tenant): the lookup goes
    // through the member index, one covering-index row per id (profiles_member_summary, migration 0009).
    .where(and(sql`+${profiles.projectCode} = ${projectCode}`, inJson(profiles.memberId, [...new Set(memberIds)])));
}

export function summariesById(rows: SummaryRow[], viewer: Viewer) {
  return new Map(rows.map((row) => [row.memberId, toProfileSummary(row, viewer)]));
}

/** Summaries for many members in one query (never one query per card), as `viewer` may see them. */
export async function profileSummaries(env: Env, projectCode: string, memberIds: string[], viewer: Viewer) {
  if (memberIds.length === 0) return new Map<string, ProfileSummary>();
  return summariesById(await profileSummariesQuery(env, projectCode, memberIds), viewer);
}

/** The cards' rows for many members, for callers that show them to several viewers (chat fan-out): `toProfileSummary` per viewer. */
export async function summaryRows(env: Env, projectCode: string, memberIds: string[]) {
  if (memberIds.length === 0) return new Map<string, SummaryRow>();
  return new Map((await profileSummariesQuery(env, projectCode, memberIds)).map((row) => [row.memberId, row]));
}

/** The viewer context for a member: whether their own avatar qualifies them to see others', and their safe mode. */
export async function viewerFor(env: Env, memberId: string | null | undefined): Promise<Viewer> {
  if (!memberId) return null;
  return toViewer(memberId, (await viewerRowQuery(env, memberId))[0]);
}

/** `viewerFor` as a batch member (result names `viewer_*`, clear of any other statement's). */
export const viewerRowQuery = (env: Env, memberId: string) =>
  getDb(env)
    .select({
      avator: sql<string>`${profiles.avator}`.as("viewer_avator"),
      qualify: sql`${profiles.qualify}`.mapWith(profiles.qualify).as("viewer_qualify"),
      safeMode: sql`${profiles.safeMode}`.mapWith(profiles.safeMode).as("viewer_safe_mode"),
      strangerMode: viewerStranger.mode.as("viewer_stranger_media"),
      strangerFollows: viewerStranger.follows.as("viewer_stranger_follows"),
    })
    .from(profiles)
    .where(eq(profiles.memberId, memberId))
    .limit(1);

const viewerStranger = strangerColumnsOf(profiles.strangerMedia, profiles.memberId);

/** The viewer's row as `viewerRowQuery` (and statements that fold it in) read it. */
export type ViewerRow = { avator: string; qualify: boolean; safeMode: boolean; strangerMode?: string | null; strangerFollows?: string | null };

// §6/§8: without a qualifying avatar of their own, a member cannot see others' avatars.
export const toViewer = (memberId: string | null | undefined, row: ViewerRow | undefined): Viewer => {
  if (!memberId) return null;
  const strangerMedia = strangerRuleOf(row?.strangerMode, row?.strangerFollows);
  return { memberId, canSeeAvatars: canSeeAvatars(row), safeMode: Boolean(row?.safeMode), ...(strangerMedia ? { strangerMedia } : {}) };
};
