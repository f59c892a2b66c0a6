/** One profile: its public and own shapes, the owner's edits (§3/§4/§5), the view of it (§7 Profile) and the §4 unqualify mark. */
import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import ngeohash from "ngeohash";
import { getDb, type Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import { deferWrites } from "../../db/deferred-writes";
import { actionStats, mediaUploads, profiles, userCharacters, visitors } from "../../db/schema";
import type { OwnProfile, ProfilePatch, PublicProfile } from "../../contract/profiles";
import type { LastBidding } from "../../contract/market";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import { AppError } from "../../lib/app-error";
import { DELETED_CODE_PREFIX, isDeletedCode } from "../../lib/ids";
import { iso } from "../../lib/time";
import { notBlockedWith, isBlockedBetween } from "../members/visibility";
import { NO_RELATIONSHIP, relationshipColumns, toRelationship, type Relationship } from "../members/relationship";
import { toProfileSummary, type Viewer } from "../members/profile-summary";
import { publicPositionFields, relativeTo } from "../members/position-cell";
import { addMark } from "../moderation/moderation.service";
import { closedStub, mayOpenProfile, seesAsVisitor } from "../members/profile-access";
import { ageOn, matchRate, parseCoordinates, validCoordinates, zodiacFromBirthday } from "../members/profile-math";
import { canSeeAvatars } from "../members/avatar-rights";
import { actionStatement } from "../members/action-stats";

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
export async function updateProfile(env: Env, memberId: string, patch: ProfilePatch): Promise<OwnProfile> {
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
