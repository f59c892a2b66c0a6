import { and, desc, eq, sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { bannerRatings, banners, mediaUploads, profiles } from "../../db/schema";
import type { Banner, BannerRevealed, BannerWithOwner } from "../../contract/profiles";
import type { ReviewPhoto } from "../../contract/home";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import { deleteMedia } from "../images/edge-cache";
import type { ProfileSummary } from "../../contract/profile-summary";
import { AppError } from "../../lib/app-error";
import { closedTo, seenAsVisitor } from "../members/profile-access";
import { iso } from "../../lib/time";
import { coinAwardStatements } from "../coins/coin-awards";
import { notBlockedWith, isBlockedBetween } from "../members/visibility";
import { profileSummaryColumns, summaryJsonOf, toProfileSummary, viewerFor, type SummaryRow, type Viewer } from "../members/profile-summary";
import { actionStatement } from "../members/action-stats";
import { ownerCommentCount } from "../chat/photo-comment-counts";
import { strangerBlurs } from "../members/stranger-media";
import { memberByNo } from "../members/members";

type BannerRow = typeof banners.$inferSelect;

/** The owner looking at their own photo (writes answer with the owner's view). */
const ownerViewer = (memberId: string): Viewer => ({ memberId, canSeeAvatars: true, safeMode: false });

/**
 * The picture a viewer gets of a photo (README Decisions "Visitors get a blurred rendition, never the original"): the
 * owner, the original. A visitor, a safe-mode viewer, and everyone for a `blur` photo (§9): the blurred rendition only
 * ('' for a photo older than renditions), flagged blurred; a member gets the original through the 10-tap reveal
 * (`revealBanner`). So does a viewer whose stranger-media setting covers the owner (`strangerBlurs`; the page's
 * one-tap "Reveal" is the same route). Everyone else: the original.
 */
export function photoOf(row: { memberId: string; image: string; blurImage: string; blur: boolean }, viewer: Viewer): { image: string; blur: boolean; strangerBlur?: true } {
  if (viewer?.memberId === row.memberId) return { image: row.image, blur: row.blur };
  if (!viewer || viewer.safeMode || row.blur) return { image: row.blurImage, blur: true };
  if (strangerBlurs(viewer, row.memberId)) return { image: row.blurImage, blur: true, strangerBlur: true };
  return { image: row.image, blur: row.blur };
}

export function toBanner(row: BannerRow, viewer: Viewer): Banner {
  const { image, blur, strangerBlur } = photoOf(row, viewer);
  return {
    idBanner: row.idBanner,
    image,
    pickable: row.pickable,
    width: row.width,
    height: row.height,
    memberNo: row.memberNo,
    url: row.url,
    blur,
    ...(strangerBlur ? { strangerBlur } : {}),
    rating: row.ratingCount ? Math.round((row.ratingSum / row.ratingCount) * 10) / 10 : 0,
    ratingCount: row.ratingCount,
    threadCount: row.threadCount,
    dateAdd: iso(row.createdAt)!,
  };
}

/** Records an upload so banners and avatars can only point at the member's own images. */
export function recordUploadStatement(
  env: Env,
  input: { key: string; projectCode: string; memberId: string; kind: string; width: number; height: number; graphic: boolean; renditionKey: string | null; contentHash?: string | null },
) {
  return getDb(env).insert(mediaUploads).values({ ...input, createdAt: Date.now() });
}

/** POST /core/banners/{memberId}: `image` must be the caller's photo upload; graphic photos are never pickable (§5). */
export async function createBanner(
  env: Env,
  member: { memberId: string; memberNo: string; projectCode: string },
  body: { image: string; pickable: boolean; width: number; height: number; url?: string },
) {
  const db = getDb(env);
  const key = mediaKeyFromUrl(body.image);
  const upload = key
    ? await db.select().from(mediaUploads).where(and(eq(mediaUploads.key, key), eq(mediaUploads.memberId, member.memberId))).get()
    : undefined;
  if (upload?.kind !== "photo") throw new AppError("imageNotOwned");
  const [inserted] = await db.batch([
    db
      .insert(banners)
      .values({
        projectCode: member.projectCode,
        memberId: member.memberId,
        memberNo: member.memberNo,
        image: body.image,
        pickable: body.pickable && !upload.graphic,
        width: body.width,
        height: body.height,
        url: body.url ?? "",
        blur: upload.graphic,
        blurImage: upload.renditionKey ? mediaUrl(upload.renditionKey) : "",
        // A new photo shows its owner's current comment count (README Decisions "Photo comment counts").
        threadCount: ownerCommentCount(member.projectCode, member.memberNo),
        createdAt: Date.now(),
      })
      .returning(),
    actionStatement(env, member.projectCode, member.memberId),
  ]);
  return toBanner(inserted[0]!, ownerViewer(member.memberId));
}

const bannerWithProfile = { banner: banners, profile: profileSummaryColumns };

function withProfiles(rows: { banner: BannerRow; profile: SummaryRow | null }[], viewer: Viewer): BannerWithOwner[] {
  return rows.flatMap((r) => (r.profile ? [{ ...toBanner(r.banner, viewer), profile: toProfileSummary(r.profile, viewer) as ProfileSummary }] : []));
}

/** The tenant's pickable photos, newest first (home masonry), hiding blocked owners and blocked pairs. */
export async function projectBanners(env: Env, projectCode: string, viewer: Viewer, pageSize: number) {
  return withProfiles(await projectBannersQuery(env, projectCode, viewer?.memberId, pageSize), viewer);
}

/** As a batch member: the owner's card is one JSON column, so none of its columns collides with the banner's. */
export const projectBannersQuery = (env: Env, projectCode: string, viewerId: string | null | undefined, pageSize: number) =>
  getDb(env)
    .select({ banner: banners, profile: summaryJsonOf(profiles).as("owner_card") })
    .from(banners)
    .innerJoin(profiles, eq(profiles.memberId, banners.memberId))
    // A closed member's photos stay on their profile, for those it opens to (profile-access.ts).
    .where(and(eq(banners.projectCode, projectCode), eq(banners.pickable, true), eq(profiles.blocked, false), eq(profiles.closed, false), notBlockedWith(viewerId, banners.memberId)))
    .orderBy(desc(banners.pickable), desc(banners.createdAt))
    .limit(pageSize);

export { withProfiles as bannersWithProfiles };

/** One member's photos, newest first, without the owner's card (`memberId` may be a subquery, for a batch). */
export const bannersOfQuery = (env: Env, memberId: SQLWrapper | string) =>
  getDb(env).select().from(banners).where(sql`${banners.memberId} = ${memberId}`).orderBy(desc(banners.createdAt)).limit(MEMBER_BANNERS_LIMIT);
const MEMBER_BANNERS_LIMIT = 100;

/** One member's photos (by member number), newest first. */
export async function memberBanners(env: Env, projectCode: string, memberNo: string, viewer: Viewer) {
  const owner = await memberByNo(env, projectCode, memberNo, viewer?.memberId);
  if (!owner || owner.iBlocked || owner.theyBlocked) throw new AppError("notFound");
  const rows = await getDb(env)
    .select(bannerWithProfile)
    .from(banners)
    .innerJoin(profiles, eq(profiles.memberId, banners.memberId))
    .where(eq(banners.memberId, owner.memberId))
    .orderBy(desc(banners.createdAt))
    .limit(MEMBER_BANNERS_LIMIT);
  return withProfiles(rows, viewer);
}

/** §4 photo review: up to 10 pickable photos of others the viewer has not rated yet. */
export async function reviewBanners(env: Env, projectCode: string, viewer: NonNullable<Viewer>): Promise<ReviewPhoto[]> {
  const rows = await getDb(env)
    .select(bannerWithProfile)
    .from(banners)
    .innerJoin(profiles, eq(profiles.memberId, banners.memberId))
    .where(
      and(
        eq(banners.projectCode, projectCode),
        eq(banners.pickable, true),
        sql`${banners.memberId} <> ${viewer.memberId}`,
        eq(profiles.blocked, false),
        eq(profiles.closed, false),
        sql`not exists (select 1 from banner_ratings r where r.member_id = ${viewer.memberId} and r.id_banner = ${banners.idBanner})`,
        notBlockedWith(viewer.memberId, banners.memberId),
      ),
    )
    .orderBy(desc(banners.pickable), desc(banners.createdAt))
    .limit(10);
  return withProfiles(rows, viewer);
}

async function ownBanner(env: Env, idBanner: number, memberId: string) {
  const row = await getDb(env).select().from(banners).where(eq(banners.idBanner, idBanner)).get();
  // Someone else's photo is "not found" for writes, never a confirmation that it exists.
  if (!row || row.memberId !== memberId) throw new AppError("photoNotFound");
  return row;
}

/**
 * Deleting a photo deletes its file: the upload row goes in the same batch once no other photo of the member shows the
 * same upload, and then the original and its blurred rendition leave R2 and the edge cache (edge-cache.ts), so a kept
 * URL stops working too.
 */
export async function deleteBanner(env: Env, idBanner: number, memberId: string) {
  const row = await ownBanner(env, idBanner, memberId);
  const db = getDb(env);
  const key = mediaKeyFromUrl(row.image);
  const [, , released] = await db.batch([
    db.delete(bannerRatings).where(eq(bannerRatings.idBanner, idBanner)),
    db.delete(banners).where(eq(banners.idBanner, idBanner)),
    db
      .delete(mediaUploads)
      .where(and(eq(mediaUploads.key, key ?? ""), eq(mediaUploads.memberId, memberId), sql`not exists (select 1 from ${banners} where ${banners.image} = ${row.image})`))
      .returning({ key: mediaUploads.key, renditionKey: mediaUploads.renditionKey }),
  ]);
  const files = released.flatMap((upload) => [upload.key, upload.renditionKey]);
  const blurKey = row.blurImage ? mediaKeyFromUrl(row.blurImage) : null;
  if (blurKey && files.length) files.push(blurKey);
  await deleteMedia(env, [...new Set(files.filter((file): file is string => Boolean(file)))]);
}

export async function resizeBanner(env: Env, idBanner: number, memberId: string, size: { width: number; height: number }) {
  await ownBanner(env, idBanner, memberId);
  const [row] = await getDb(env).update(banners).set(size).where(eq(banners.idBanner, idBanner)).returning();
  return toBanner(row!, ownerViewer(memberId));
}

/** One rating per member per photo; the rater earns 1 M coin once per photo (§9), in the same batch. */
export async function rateBanner(env: Env, member: { memberId: string; projectCode: string }, idBanner: number, rating: number) {
  const db = getDb(env);
  const banner = await db.select().from(banners).where(and(eq(banners.idBanner, idBanner), eq(banners.projectCode, member.projectCode))).get();
  if (!banner || (await isBlockedBetween(env, member.memberId, banner.memberId))) throw new AppError("photoNotFound");
  if (banner.memberId === member.memberId) throw new AppError("cannotRateOwnPhoto");
  const existing = await db
    .select({ id: bannerRatings.idBannerRating })
    .from(bannerRatings)
    .where(and(eq(bannerRatings.memberId, member.memberId), eq(bannerRatings.idBanner, idBanner)))
    .get();
  if (existing) throw new AppError("alreadyRated");
  const at = Date.now();
  try {
    await db.batch([
      db.insert(bannerRatings).values({ projectCode: member.projectCode, idBanner, memberId: member.memberId, rating, createdAt: at }),
      db
        .update(banners)
        .set({ ratingSum: sql`${banners.ratingSum} + ${rating}`, ratingCount: sql`${banners.ratingCount} + 1` })
        .where(eq(banners.idBanner, idBanner)),
      ...coinAwardStatements(db, { projectCode: member.projectCode, memberId: member.memberId, reason: "photoRated", sourceKey: String(idBanner) }),
      actionStatement(env, member.projectCode, member.memberId, at),
    ]);
  } catch (error) {
    // A concurrent second rating hits the unique key: the batch rolled back as a whole.
    if (String(error).includes("UNIQUE")) throw new AppError("alreadyRated");
    throw error;
  }
  const row = await db.select().from(banners).where(eq(banners.idBanner, idBanner)).get();
  // Rating answers the photo as the rater may see it: a visitor's rendition where the owner approves followers.
  const asVisitor = await seenAsVisitor(env, member.projectCode, row!.memberNo, member.memberId);
  return toBanner(row!, asVisitor ? null : await viewerFor(env, member.memberId));
}

/**
 * §9 the 10-tap reveal of a blurred photo: the original's URL, for a signed-in member of the photo's tenant who is
 * not blocked either way with its owner (else "not found"). Visitors never get it (private route).
 */
export async function revealBanner(env: Env, member: { memberId: string; projectCode: string }, idBanner: number): Promise<BannerRevealed> {
  const db = getDb(env);
  const banner = await db
    .select({ idBanner: banners.idBanner, memberId: banners.memberId, memberNo: banners.memberNo, image: banners.image })
    .from(banners)
    .where(and(eq(banners.idBanner, idBanner), eq(banners.projectCode, member.projectCode)))
    .get();
  if (!banner || (banner.memberId !== member.memberId && (await isBlockedBetween(env, member.memberId, banner.memberId)))) throw new AppError("photoNotFound");
  // Ids are sequential: a closed member's photo is revealed only to those the profile opens to (profile-access.ts).
  if (banner.memberId !== member.memberId && (await closedTo(env, member.projectCode, banner.memberNo, member.memberId))) throw new AppError("photoNotFound");
  // A member who approves followers is a visitor's sight to those not accepted (README "Approve followers"): no original.
  if (await seenAsVisitor(env, member.projectCode, banner.memberNo, member.memberId)) throw new AppError("photoNotFound");
  return { idBanner: banner.idBanner, image: banner.image };
}
