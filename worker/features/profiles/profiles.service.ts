import { and, desc, eq, inArray, isNotNull, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import ngeohash from "ngeohash";
import { nicknameContains } from "./nickname-search";
import { getDb, type Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import { deferWrites } from "../../db/deferred-writes";
import { LISTABLE_PROFILE, actionStats, characters, mediaUploads, profiles, projectCounters, userCharacters, visitors } from "../../db/schema";
import type { ProfileSummary } from "../../contract/profile-summary";
import type { ActionStat, Character, OwnProfile, ProfilePatch, PublicProfile } from "../../contract/profiles";
import type { LastBidding } from "../../contract/market";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import { AppError } from "../../lib/app-error";
import { DELETED_CODE_PREFIX, isDeletedCode } from "../../lib/ids";
import { iso } from "../../lib/time";
import { notBlockedWith, isBlockedBetween } from "../members/visibility";
import { NO_RELATIONSHIP, relationshipColumns, toRelationship, type Relationship } from "../members/relationship";
import { profileSummaryColumns, toProfileSummary, type Viewer } from "../members/profile-summary";
import { publicPositionFields, relativeTo } from "./position-cell";
import { addMark } from "../moderation/moderation.service";
import { closedStub, mayOpenProfile, openToViewerSql, seesAsVisitor } from "../members/profile-access";
import { ageOn, matchRate, parseCoordinates, validCoordinates, zodiacFromBirthday } from "./profile-math";
import { canSeeAvatars } from "../members/avatar-rights";

type ProfileRow = typeof profiles.$inferSelect;

/** The public subset of §3 Profile: never phone, mobile, address, email hash or safeword. */
export function publicProfile(row: ProfileRow, viewer: Viewer): PublicProfile {
  const summary = toProfileSummary(row, viewer);
  return {
    ...summary,
    projectCode: row.projectCode,
    introduction: row.introduction,
    unqualifiedCount: row.unqualifiedCount,
    // SECURITY.md "What a visitor sees": the sign, never the date (the owner gets it in `ownProfile`).
    birthday: null as string | null,
    zodiacSign: row.zodiacSign,
    skypeId: row.skypeId,
    wechatId: row.wechatId,
    telegramId: row.telegramId,
    twitterId: row.twitterId,
    instagramId: row.instagramId,
    dcardId: row.dcardId,
    websiteUrl: row.websiteUrl,
    publicKey: row.publicKey,
    // Other members get the member's cell, visitors nothing (README "Cells, not positions").
    ...publicPositionFields(row, viewer !== null),
    biddingCount: row.biddingCount,
    // Page-view counts are for members (SECURITY.md "What a visitor sees").
    pageViews: viewer ? row.pageViews : null,
  };
}
export type { PublicProfile };

/** Every §3 field, for the owner. */
export function ownProfile(row: ProfileRow): OwnProfile {
  return {
    ...publicProfile(row, { memberId: row.memberId, canSeeAvatars: true, safeMode: row.safeMode }),
    memberId: row.memberId,
    // The owner's own exact position, and whether others see its cell.
    geohash: row.geohash,
    latitude: row.latitude,
    longitude: row.longitude,
    showPosition: row.showPosition,
    birthday: row.birthday,
    muted: row.muted,
    safeMode: row.safeMode,
    genderLocked: row.genderLocked,
    safeword: row.safeword,
    phone: row.phone,
    mobile: row.mobile,
    defaultAddress: row.defaultAddress,
    emailHash: row.emailHash,
    language: row.language,
    // Filled by GET /core/profiles/{own memberId} (market.service lastBiddingOf); other paths leave it out.
    lastBidding: null as LastBidding | null,
    dateAdd: iso(row.createdAt),
    dateUdp: iso(row.updatedAt),
  };
}
export type { OwnProfile };

export async function profileByMemberId(env: Env, memberId: string) {
  return getDb(env).select().from(profiles).where(eq(profiles.memberId, memberId)).get();
}

export async function profileByCode(env: Env, projectCode: string, simpleCode: string) {
  return getDb(env)
    .select()
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, simpleCode)))
    .get();
}

/** Applies a PATCH from the owner, enforcing §3/§4/§5. Returns the updated profile. */
export async function updateProfile(env: Env, memberId: string, patch: ProfilePatch) {
  const db = getDb(env);
  const current = await profileByMemberId(env, memberId);
  if (!current) throw new AppError("notFound");
  const set: Partial<typeof profiles.$inferInsert> = {};
  const copy = [
    "nickname", "introduction", "muted", "isRainbow", "closed", "safeMode", "showPosition", "lookFor", "phone", "mobile", "defaultAddress", "language",
    "skypeId", "wechatId", "telegramId", "twitterId", "instagramId", "dcardId", "websiteUrl",
  ] as const;
  for (const key of copy) if (patch[key] !== undefined) (set as Record<string, unknown>)[key] = patch[key];
  if (patch.publicKey !== undefined) set.publicKey = patch.publicKey || null;

  // §5: the safeword is saved only when non-empty.
  if (patch.safeword) set.safeword = patch.safeword;

  if (patch.birthday !== undefined) {
    if (patch.birthday && ageOn(patch.birthday) < 18) throw new AppError("underage");
    if (patch.birthday && ageOn(patch.birthday) > 120) throw new AppError("badRequest", { message: "Invalid birthday" });
    set.birthday = patch.birthday;
    set.zodiacSign = zodiacFromBirthday(patch.birthday);
  }

  // §4: the role attribute locks after a confirmed change.
  if (patch.multiGender !== undefined && patch.multiGender !== current.multiGender) {
    if (current.genderLocked) throw new AppError("genderLocked");
    set.multiGender = patch.multiGender;
    set.genderLocked = true;
  }

  // Coordinates: a "lat,lng" pair or a single latitude (§5); explicit fields too.
  let latitude = patch.latitude !== undefined ? patch.latitude : current.latitude;
  let longitude = patch.longitude !== undefined ? patch.longitude : current.longitude;
  if (patch.coordinates !== undefined) {
    const parsed = parseCoordinates(patch.coordinates);
    if (!parsed) throw new AppError("badCoordinates");
    latitude = parsed.latitude;
    if (parsed.longitude !== undefined) longitude = parsed.longitude;
  }
  if (patch.coordinates !== undefined || patch.latitude !== undefined || patch.longitude !== undefined) {
    set.latitude = latitude;
    set.longitude = longitude;
    set.geohash = validCoordinates(latitude, longitude) ? ngeohash.encode(latitude!, longitude!, 9) : null;
  }

  // Avatar: only one of the member's own avatar uploads (or "" to remove). Qualification comes from the
  // server-side graphic check of that upload, never from the client; a member may only lower it.
  if (patch.avator !== undefined) {
    if (patch.avator === "") {
      set.avator = "";
      set.avatorBlur = "";
      set.qualify = false;
    } else {
      const key = mediaKeyFromUrl(patch.avator);
      const upload = key
        ? await db.select().from(mediaUploads).where(and(eq(mediaUploads.key, key), eq(mediaUploads.memberId, memberId))).get()
        : undefined;
      if (upload?.kind !== "avatar") throw new AppError("imageNotOwned");
      set.avator = patch.avator;
      // The upload's own rendition, or none (an upload older than renditions): never the original for those who get renditions.
      set.avatorBlur = upload.renditionKey ? mediaUrl(upload.renditionKey) : "";
      // An avatar an operator took down stays down: choosing it again is refused (README "Moderation instead of mob rule").
      if (current.avatorTakedownHash !== null && upload.contentHash === current.avatorTakedownHash) throw new AppError("avatarTakenDown");
      set.qualify = !upload.graphic && patch.qualify !== false;
      if (!set.qualify && patch.avator !== current.avator) set.unqualifiedCount = current.unqualifiedCount + 1;
    }
  } else if (patch.qualify === false && current.qualify) {
    set.qualify = false;
  }

  if (Object.keys(set).length > 0) {
    set.updatedAt = Date.now();
    await db.batch([
      db.update(profiles).set(set).where(eq(profiles.memberId, memberId)),
      actionStatement(env, current.projectCode, memberId),
    ]);
  }
  return ownProfile((await profileByMemberId(env, memberId))!);
}

/** Records one action of a member in their hour-of-day histogram (§3 Action stats). Use in a batch. */
export function actionStatement(env: Env, projectCode: string, memberId: string, at = Date.now()) {
  const hour = new Date(at).getUTCHours();
  // Query builders, not db.run(sql): drizzle's D1 batch cannot bind parameters of raw statements.
  return getDb(env)
    .insert(actionStats)
    .values({ memberId, projectCode, actionHour: hour, actionCount: 1 })
    .onConflictDoUpdate({ target: [actionStats.memberId, actionStats.actionHour], set: { actionCount: sql`${actionStats.actionCount} + 1` } });
}

/** 24 entries, UTC hours 0..23 (the page shifts them to local time). */
export async function actionStatsFor(env: Env, memberId: string): Promise<ActionStat[]> {
  return toActionStats(await actionStatsQuery(env, memberId));
}

/** `memberId` may be a subquery (a batch that does not know the id yet). */
export const actionStatsQuery = (env: Env, memberId: SQLWrapper | string) =>
  getDb(env)
    .select({ actionHour: actionStats.actionHour, actionCount: actionStats.actionCount })
    .from(actionStats)
    .where(sql`${actionStats.memberId} = ${memberId}`);

export function toActionStats(rows: { actionHour: number; actionCount: number }[]): ActionStat[] {
  const byHour = new Map(rows.map((r) => [r.actionHour, r.actionCount]));
  return Array.from({ length: 24 }, (_, hour) => ({ actionHour: hour, actionCount: byHour.get(hour) ?? 0 }));
}

/**
 * The public profile of the member `locate` finds in `projectCode`, as `viewerId` sees it: 404 when missing,
 * across tenants or blocked either way. A member's view records a visit (footprint) and a page view; an
 * anonymous view counts a page view only; one's own view counts nothing. One round trip: a batch reads the
 * target with the relationship, the viewer and both members' characters; the visit is recorded after the
 * response under the same conditions in SQL (`record`), so the read is served by a replica.
 */
export async function viewProfile(env: Env, projectCode: string, locate: Locate, viewerId: string | null) {
  const view = profileViewReads(env, projectCode, locate, viewerId);
  const [targets, viewers, characterRows] = await getDb(env).batch([...view.queries]);
  const { profile } = view.finish(targets, viewers, characterRows);
  view.record();
  return profile;
}

/**
 * The reads and the visit's writes behind `viewProfile` as batch members, so a caller can add its own to the
 * same round trip (`targetId` is the target's member id as a subquery), `finish`, which checks access and
 * shapes the profile, and `record`, which writes the visit after the response.
 */
export function profileViewReads(env: Env, projectCode: string, locate: Locate, viewerId: string | null) {
  const db = getDb(env);
  const at = Date.now();
  const targetId = targetIdOf(projectCode, locate.by, locate.value);
  const values = { projectCode, target: locate.value, viewerId: viewerId ?? "", at, hour: new Date(at).getUTCHours() };
  const statements = viewerId ? memberView[locate.by](db, values) : visitorView[locate.by](db, values);
  const queries = [statements[0], statements[1], statements[2]] as const;
  const writes = statements.slice(3) as unknown as ViewStatements["3"][];
  type Rows<I extends number> = Awaited<(typeof queries)[I]>;

  function finish(targets: Rows<0>, viewers: Rows<1>, characterRows: Rows<2>) {
    const found = targets[0];
    const me = viewers[0];
    // A deleted account is not found by its private id either (by number it is never found: `newDeletedCode`).
    if (!found || isDeletedCode(found.profile.simpleCode) || (viewerId && me?.viewerProject !== projectCode)) throw new AppError("notFound");
    let target = found.profile;
    const own = viewerId === target.memberId;
    const relationship = viewerId && !own ? toRelationship(found.rel) : NO_RELATIONSHIP;
    if (relationship.blocking || relationship.blockedBy) throw new AppError("notFound");
    const viewer: Viewer = viewerId ? { memberId: viewerId, canSeeAvatars: canSeeAvatars({ avator: me?.viewerAvator, qualify: me?.viewerQualify }), safeMode: Boolean(me?.viewerSafeMode) } : null;
    // The batch counted this view after reading the row.
    if (!own) target = { ...target, pageViews: target.pageViews + 1 };
    // Whole kilometres and a compass point between cells, never between exact positions (position-cell.ts).
    const geo = own ? null : relativeTo(me && { latitude: me.viewerLat, longitude: me.viewerLng }, target);
    const characterIds = new Map<string, number[]>();
    for (const r of characterRows) characterIds.set(r.memberId, [...(characterIds.get(r.memberId) ?? []), r.idCharacter]);
    // README Decisions "Approve followers": a member who is not an accepted follower gets the visitor's view (profile-access.ts).
    const asVisitor = seesAsVisitor(target, viewerId, relationship);
    const shownTo: Viewer = asVisitor ? null : viewer;
    const profile = {
      ...(own ? ownProfile(target) : publicProfile(target, shownTo)),
      relationship: relationship as Relationship,
      matchRate: viewerId && !own && !asVisitor ? matchRate(characterIds.get(viewerId) ?? [], characterIds.get(target.memberId) ?? []) : null,
      distanceKm: asVisitor ? null : (geo?.distanceKm ?? null),
      bearing: asVisitor ? null : (geo?.bearing ?? null),
    };
    // §4 Closed profile: everyone the owner has not let in gets the stub (profile-access.ts).
    const open = mayOpenProfile(target, asVisitor ? null : viewerId, relationship);
    return { profile: open ? profile : closedStub(target, shownTo, viewerId ? relationship : null), open, target, viewer, shownTo, asVisitor, characterIds };
  }

  /**
   * Records the visit after the response (deferred-writes.ts), so the view itself reads from a replica. Its
   * statements keep their SQL conditions (tenant, blocks, not one's own): written later, they count what
   * `finish` showed.
   */
  const record = () => deferWrites(env, writes);
  return { queries, writes, targetId, finish, record };
}

/** How `viewProfile` finds its target within the tenant. */
export const locate = {
  byCode: (simpleCode: string): Locate => ({ by: "simpleCode", value: simpleCode }),
  byMemberId: (memberId: string): Locate => ({ by: "memberId", value: memberId }),
};
type Locate = { by: "simpleCode" | "memberId"; value: string };
const targetWhere = (projectCode: string, by: Locate["by"], value: string) =>
  and(eq(profiles.projectCode, projectCode), by === "simpleCode" ? eq(profiles.simpleCode, value) : eq(profiles.memberId, value))!;
/** The target's member id as a subquery, for statements that read the target's own rows in the same batch. */
const targetIdOf = (projectCode: string, by: Locate["by"], value: string) => sql`(select member_id from profiles where ${targetWhere(projectCode, by, value)} limit 1)`;

type ViewValues = { projectCode: string; target: string; viewerId: string; at: number; hour: number };
type ViewStatements = ReturnType<typeof viewStatements>;

/**
 * The profile view's statements (3 reads, then the visit's writes), built once per shape with placeholders
 * (`compiled`): who is looked up by what, and whether a member or a visitor views.
 */
function viewStatements(db: Db, v: ViewValues, by: Locate["by"], member: boolean) {
  const viewerId = member ? v.viewerId : null;
  const where = targetWhere(v.projectCode, by, v.target);
  const targetId = targetIdOf(v.projectCode, by, v.target);
  // The visit, only where `finish` would show the profile: the target is in the tenant, not the viewer and not a
  // deleted account, the viewer (if any) is a member of the tenant, and no live block stands either way.
  const visited = and(
    where,
    viewerId ? ne(profiles.memberId, viewerId) : undefined,
    viewerId ? sql`exists (select 1 from profiles v where v.member_id = ${viewerId} and v.project_code = ${v.projectCode})` : undefined,
    notBlockedWith(viewerId, profiles.memberId, v.at),
    sql`${profiles.simpleCode} not like ${sql.raw(`'${DELETED_CODE_PREFIX}%'`)}`,
  );
  return [
    // Relationship columns are named (`rel_*`): D1 batch results are keyed by column name.
    db.select({ profile: profiles, rel: namedRelationship(v.viewerId, v.at) }).from(profiles).where(where).limit(1),
    db
      .select({ viewerProject: profiles.projectCode, viewerAvator: profiles.avator, viewerQualify: profiles.qualify, viewerSafeMode: profiles.safeMode, viewerLat: profiles.latitude, viewerLng: profiles.longitude })
      .from(profiles)
      .where(eq(profiles.memberId, v.viewerId))
      .limit(1),
    db
      .select({ memberId: userCharacters.memberId, idCharacter: userCharacters.idCharacter })
      .from(userCharacters)
      .where(sql`${userCharacters.memberId} = ${v.viewerId} or ${userCharacters.memberId} = ${targetId}`),
    db.update(profiles).set({ pageViews: sql`${profiles.pageViews} + 1` }).where(visited),
    ...(viewerId
      ? [
          db
            .insert(visitors)
            .select(db.select({ idVisitor: sql<number>`null`.as("id_visitor"), projectCode: profiles.projectCode, memberId: profiles.memberId, visitorId: sql`${viewerId}`.as("visitor_id"), visitCount: sql`1`.as("visit_count"), dateUpd: sql`${v.at}`.as("date_upd") }).from(profiles).where(visited))
            .onConflictDoUpdate({ target: [visitors.memberId, visitors.visitorId], set: { visitCount: sql`${visitors.visitCount} + 1`, dateUpd: v.at } }),
          db
            .insert(actionStats)
            .select(db.select({ memberId: sql`${viewerId}`.as("member_id"), projectCode: profiles.projectCode, actionHour: sql`${v.hour}`.as("action_hour"), actionCount: sql`1`.as("action_count") }).from(profiles).where(visited))
            .onConflictDoUpdate({ target: [actionStats.memberId, actionStats.actionHour], set: { actionCount: sql`${actionStats.actionCount} + 1` } }),
        ]
      : []),
  ] as const;
}

const memberView = {
  simpleCode: compiled<ViewValues, Db, ViewStatements>((db, v) => viewStatements(db, v, "simpleCode", true)),
  memberId: compiled<ViewValues, Db, ViewStatements>((db, v) => viewStatements(db, v, "memberId", true)),
};
const visitorView = {
  simpleCode: compiled<ViewValues, Db, ViewStatements>((db, v) => viewStatements(db, v, "simpleCode", false)),
  memberId: compiled<ViewValues, Db, ViewStatements>((db, v) => viewStatements(db, v, "memberId", false)),
};

/** The relationship subqueries, correlated to the outer `profiles` row, under `rel_`-prefixed names. */
function namedRelationship(viewerId: string, at: number) {
  // Qualified by hand: drizzle writes a lone table's columns unqualified, and inside `from blocks` a bare
  // "member_id" would mean blocks.member_id.
  const columns = relationshipColumns(viewerId, sql.raw(`"profiles"."member_id"`), at);
  return Object.fromEntries(Object.entries(columns).map(([name, expression]) => [name, expression.as(`rel_${name}`)])) as {
    [K in keyof typeof columns]: SQL.Aliased<(typeof columns)[K]["_"]["type"]>;
  };
}

async function characterIdsOf(env: Env, memberIds: string[]) {
  const rows = await getDb(env)
    .select({ memberId: userCharacters.memberId, idCharacter: userCharacters.idCharacter })
    .from(userCharacters)
    .where(inArray(userCharacters.memberId, memberIds));
  const map = new Map<string, number[]>();
  for (const r of rows) map.set(r.memberId, [...(map.get(r.memberId) ?? []), r.idCharacter]);
  return map;
}

// ---------------------------------------------------------------------------------------------------------
// Discovery lists (§7 Profile, §5 hiding rules, §9 page sizes). Each reads one partial index in order.

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

const LANGUAGE_OF_LOCALE: Record<string, string> = { en: "en", "en-us": "en", ja: "ja", "ja-jp": "ja", "zh-cn": "zh-CN", "zh-tw": "zh-TW" };
export const languageOfLocale = (locale: string | undefined) => (locale ? LANGUAGE_OF_LOCALE[locale.toLowerCase()] ?? null : null);

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

/**
 * §4 / §8: 10 block taps mark a profile unqualified; each member counts once, weighted by standing. The avatar
 * comes down only when established members' marks add up (`addMark`) or an operator decides, never by one call.
 */
export async function markUnqualified(env: Env, reporterId: string, projectCode: string, idProfile: number) {
  const db = getDb(env);
  const target = await db
    .select({ memberId: profiles.memberId, idProfile: profiles.idProfile, simpleCode: profiles.simpleCode })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.idProfile, idProfile)))
    .get();
  // A deleted account's card still carries its idProfile; it gathers no counts again.
  if (!target || isDeletedCode(target.simpleCode) || target.memberId === reporterId || (await isBlockedBetween(env, reporterId, target.memberId))) {
    throw new AppError("notFound");
  }
  await addMark(env, reporterId, target);
  const row = await db.select({ qualify: profiles.qualify, unqualifiedCount: profiles.unqualifiedCount }).from(profiles).where(eq(profiles.idProfile, idProfile)).get();
  return { idProfile, qualify: row!.qualify, unqualifiedCount: row!.unqualifiedCount };
}

// ---------------------------------------------------------------------------------------------------------
// Visitors (footprints)

export type VisitorEntry = { simpleCode: string; nickname: string; dateUpd: string; visitCount: number; profile: ProfileSummary };

/** Visitors of `memberId`, newest first; visitors without nickname hidden (§5); blocks hide both ways. */
export async function visitorsOf(env: Env, memberId: string, viewer: Viewer, pageSize: number): Promise<VisitorEntry[]> {
  return toVisitors(await visitorsQuery(env, memberId, viewer?.memberId, pageSize), viewer);
}

/** `memberId` may be a subquery (a batch that does not know the id yet). */
export const visitorsQuery = (env: Env, memberId: SQLWrapper | string, viewerId: string | null | undefined, pageSize: number) =>
  getDb(env)
    .select({ ...profileSummaryColumns, dateUpd: visitors.dateUpd, visitCount: visitors.visitCount })
    .from(visitors)
    .innerJoin(profiles, eq(profiles.memberId, visitors.visitorId))
    .where(
      and(
        sql`${visitors.memberId} = ${memberId}`,
        ne(profiles.nickname, ""),
        eq(profiles.blocked, false),
        notBlockedWith(viewerId, visitors.visitorId),
        notBlockedWith(memberId, visitors.visitorId),
      ),
    )
    .orderBy(desc(visitors.dateUpd))
    .limit(pageSize);

export function toVisitors(rows: Awaited<ReturnType<typeof visitorsQuery>>, viewer: Viewer): VisitorEntry[] {
  return rows.map((row) => ({
    simpleCode: row.simpleCode,
    nickname: row.nickname,
    dateUpd: iso(row.dateUpd)!,
    visitCount: row.visitCount,
    profile: toProfileSummary(row, viewer),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Characters (preferences)

export async function charactersFor(env: Env, projectCode: string, targetId: string | null, viewerId: string | null): Promise<Character[]> {
  const [catalogue, ids] = await Promise.all([characterCatalogueQuery(env, projectCode), characterIdsOf(env, [targetId, viewerId].filter((x): x is string => Boolean(x)))]);
  return toCharacters(catalogue, targetId ? ids.get(targetId) ?? [] : [], viewerId ? ids.get(viewerId) ?? [] : []);
}

export const characterCatalogueQuery = (env: Env, projectCode: string) =>
  getDb(env)
    .select({ idCharacter: characters.idCharacter, title: characters.title, level: characters.level })
    .from(characters)
    .where(inArray(characters.projectCode, ["*", projectCode]))
    .orderBy(characters.idCharacter);

/** The catalogue with the target's picks checked and the ones the viewer shares marked as hits. */
export function toCharacters(catalogue: Awaited<ReturnType<typeof characterCatalogueQuery>>, targetIds: number[], viewerIds: number[]): Character[] {
  const checked = new Set(targetIds);
  const mine = new Set(viewerIds);
  return catalogue.map((c) => ({ ...c, checked: checked.has(c.idCharacter), hit: checked.has(c.idCharacter) && mine.has(c.idCharacter) }));
}

async function requireCharacter(env: Env, projectCode: string, idCharacter: number) {
  const row = await getDb(env)
    .select({ idCharacter: characters.idCharacter })
    .from(characters)
    .where(and(eq(characters.idCharacter, idCharacter), inArray(characters.projectCode, ["*", projectCode])))
    .get();
  if (!row) throw new AppError("characterNotFound");
}

export async function addCharacter(env: Env, projectCode: string, memberId: string, idCharacter: number) {
  await requireCharacter(env, projectCode, idCharacter);
  const db = getDb(env);
  await db.batch([
    db.insert(userCharacters).values({ projectCode, memberId, idCharacter, createdAt: Date.now() }).onConflictDoNothing(),
    actionStatement(env, projectCode, memberId),
  ]);
}

export async function removeCharacter(env: Env, projectCode: string, memberId: string, idCharacter: number) {
  await requireCharacter(env, projectCode, idCharacter);
  await getDb(env)
    .delete(userCharacters)
    .where(and(eq(userCharacters.memberId, memberId), eq(userCharacters.idCharacter, idCharacter)));
}

/** Users holding one preference, 20 per page (§9), newest first, hiding blocked pairs and profiles closed to the viewer. */
export async function characterUsers(env: Env, projectCode: string, idCharacter: number, viewer: Viewer, page: number, pageSize: number) {
  await requireCharacter(env, projectCode, idCharacter);
  const rows = await getDb(env)
    .select({ ...profileSummaryColumns, idUserCharacter: userCharacters.idUserCharacter })
    .from(userCharacters)
    .innerJoin(profiles, eq(profiles.memberId, userCharacters.memberId))
    .where(
      and(
        eq(userCharacters.projectCode, projectCode),
        eq(userCharacters.idCharacter, idCharacter),
        eq(profiles.blocked, false),
        notBlockedWith(viewer?.memberId, userCharacters.memberId),
        openToViewerSql(viewer?.memberId ?? null, profiles.memberId, profiles.closed),
      ),
    )
    .orderBy(desc(userCharacters.createdAt))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  const userCharactersList = rows.slice(0, pageSize).map((row) => {
    const profile = toProfileSummary(row, viewer);
    return { idUserCharacter: row.idUserCharacter, simpleCode: profile.simpleCode, nickname: profile.nickname, avator: profile.avator, profile };
  });
  return { page, pageSize, hasMore: rows.length > pageSize, userCharacters: userCharactersList };
}

