import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { albumGrants, albumKeyAttempts, albumPhotos, albumUploads, albums, profiles } from "../../db/schema";
import type { Album, AlbumAccess, AlbumGrant, AlbumListItem, Photo, UploadedFile } from "../../contract/albums";
import { ALBUM_KEY_BUDGET, ALBUM_KEY_MIN_LENGTH, ALBUM_KEY_WINDOW_MS } from "../../contract/albums.constants";
import { mediaKeyFromUrl, mediaUrl, privateMediaKeyFromUrl } from "../../contract/media";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import { hashPassword, verifyPassword } from "../../lib/crypto";
import { scramblePixels, seedToHex } from "../../contract/scramble";
import { iso, now } from "../../lib/time";
import { storeImage } from "../images/image-pipeline";
import { profileSummaries, profileSummaryColumns, toProfileSummary, viewerFor } from "../members/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { isBlockedBetween } from "../members/visibility";
import { isCurrentSeal, newScrambleSeed, openSeed as open, sealSeed as seal } from "./album-seal";
import { issueUnlock, unlockIsLive } from "./album-unlock";
import { rekeyLegacyAlbum } from "./albums-legacy";
import { deleteMedia } from "../images/edge-cache";

type AlbumRow = typeof albums.$inferSelect;
/**
 * Who is looking: a signed-in member, or a visitor (rate-limited by address); `unlock` is the album's unlock
 * cookie, if the browser holds one (album-unlock.ts).
 */
export type AlbumViewer = { member: SessionMember | null; address: string | null; unlock?: string };

const sealSeed = (env: Env, seed: Uint8Array) => seal(env.SEAL_SECRET, seed);
const openSeed = (env: Env, sealed: string) => open(env.SEAL_SECRET, sealed);

/**
 * Keys are hashed with the same PBKDF2 (100,000 iterations, per-album salt) as passwords rather than a
 * cheap salted SHA-256: album keys are member-chosen secrets, and a leaked table must not be a shortcut to
 * guessing them. The cost (~tens of ms) is paid only on a key attempt, which is rate limited and budgeted.
 */
async function verifyKey(album: AlbumRow, secretKey: string) {
  return album.keyHash ? verifyPassword(secretKey, album.keyHash) : false;
}

export async function createAlbum(env: Env, member: SessionMember, body: { title: string; secretKey: string }): Promise<Album> {
  const keyed = body.secretKey.length > 0;
  if (keyed && [...body.secretKey].length < ALBUM_KEY_MIN_LENGTH) throw new AppError("albumKeyTooShort");
  const db = getDb(env);
  const insert = db
    .insert(albums)
    .values({
      projectCode: member.projectCode,
      memberId: member.memberId,
      title: body.title,
      keyHash: keyed ? await hashPassword(body.secretKey) : null,
      seedSealed: keyed ? await sealSeed(env, newScrambleSeed()) : null,
      createdAt: now(),
    })
    .returning();
  // A keyed album starts with its (empty) attempt budget row, so a wrong key later only updates a counter.
  const budget = db.insert(albumKeyAttempts).values({ idAlbum: sql`last_insert_rowid()`, projectCode: member.projectCode, windowStart: 0, attempts: 0 });
  const [rows] = keyed ? await db.batch([insert, budget]) : [await insert];
  return albumView(env, rows[0]!, member, "owner");
}

/** An album of the tenant; one still sealed the old way is re-keyed first (albums-legacy.ts). */
async function findAlbum(env: Env, projectCode: string, idAlbum: number): Promise<AlbumRow> {
  const row = await getDb(env).select().from(albums).where(and(eq(albums.idAlbum, idAlbum), eq(albums.projectCode, projectCode))).get();
  if (!row) throw new AppError("notFound");
  return row.seedSealed && !isCurrentSeal(row.seedSealed) ? rekeyLegacyAlbum(env, row) : row;
}

/** The owner's album (another tenant's → 404, another member's → 403). */
async function ownAlbum(env: Env, member: SessionMember, idAlbum: number) {
  const row = await findAlbum(env, member.projectCode, idAlbum);
  if (row.memberId !== member.memberId) throw new AppError("notAlbumOwner");
  return row;
}

async function hasGrant(env: Env, idAlbum: number, memberId: string) {
  const row = await getDb(env)
    .select({ idAlbum: albumGrants.idAlbum })
    .from(albumGrants)
    .where(and(eq(albumGrants.idAlbum, idAlbum), eq(albumGrants.memberId, memberId)))
    .get();
  return Boolean(row);
}

/** Owner, then open album, then a live grant, then a live unlock (a key this viewer proved to the server). */
async function resolveAccess(env: Env, album: AlbumRow, viewer: AlbumViewer): Promise<AlbumAccess | null> {
  const memberId = viewer.member?.memberId ?? null;
  if (memberId === album.memberId) return "owner";
  if (!album.keyHash) return "open";
  if (memberId && (await hasGrant(env, album.idAlbum, memberId))) return "grant";
  if (await unlockIsLive(env, album, memberId, viewer.unlock)) return "key";
  return null;
}

/**
 * Reserves one key attempt in the album's hourly budget, across all members and visitors, in ONE conditional
 * statement (D1 runs statements one at a time, so parallel guesses cannot all see room left). Returns the window
 * the attempt counts in, or null when the budget is spent.
 */
async function reserveKeyAttempt(env: Env, album: AlbumRow, at: number): Promise<number | null> {
  const expired = sql`${albumKeyAttempts.windowStart} <= ${at - ALBUM_KEY_WINDOW_MS}`;
  const row = await getDb(env)
    .insert(albumKeyAttempts)
    .values({ idAlbum: album.idAlbum, projectCode: album.projectCode, windowStart: at, attempts: 1 })
    .onConflictDoUpdate({
      target: albumKeyAttempts.idAlbum,
      set: {
        attempts: sql`case when ${expired} then 1 else ${albumKeyAttempts.attempts} + 1 end`,
        windowStart: sql`case when ${expired} then ${at} else ${albumKeyAttempts.windowStart} end`,
      },
      setWhere: sql`${expired} or ${albumKeyAttempts.attempts} < ${ALBUM_KEY_BUDGET}`,
    })
    .returning({ windowStart: albumKeyAttempts.windowStart })
    .get();
  return row?.windowStart ?? null;
}

/** A right key gives its reservation back: the budget counts wrong keys only. */
async function releaseKeyAttempt(env: Env, album: AlbumRow, windowStart: number) {
  await getDb(env)
    .update(albumKeyAttempts)
    .set({ attempts: sql`${albumKeyAttempts.attempts} - 1` })
    .where(and(eq(albumKeyAttempts.idAlbum, album.idAlbum), eq(albumKeyAttempts.windowStart, windowStart), sql`${albumKeyAttempts.attempts} > 0`));
}

async function albumView(env: Env, album: AlbumRow, member: SessionMember | null, access: AlbumAccess | null): Promise<Album> {
  const viewer = await viewerFor(env, member?.memberId);
  const summaries = await profileSummaries(env, album.projectCode, [album.memberId], viewer);
  const base: Album = {
    idAlbum: album.idAlbum,
    title: album.title,
    secretKey: null,
    locked: Boolean(album.keyHash),
    profile: summaries.get(album.memberId) ?? null,
    timelog: iso(album.createdAt)!,
  };
  if (!access) return base;
  const photos = await getDb(env)
    .select({ idPhoto: albumPhotos.idPhoto, idAlbum: albumPhotos.idAlbum, filePath: albumPhotos.filePath, description: albumPhotos.description })
    .from(albumPhotos)
    .where(eq(albumPhotos.idAlbum, album.idAlbum))
    .orderBy(asc(albumPhotos.idPhoto))
    .limit(500);
  const scrambled = Boolean(album.seedSealed);
  return {
    ...base,
    photos: photos satisfies Photo[],
    access,
    scrambled,
    // Everyone with access to a scrambled album has been checked by now (owner, grantee, live unlock).
    ...(scrambled && access !== "open" ? { scrambleSeed: seedToHex(await openSeed(env, album.seedSealed!)) } : {}),
  };
}

/** Blocked either way → 404, like another tenant's album. */
async function visibleAlbum(env: Env, projectCode: string, idAlbum: number, viewer: AlbumViewer) {
  const album = await findAlbum(env, projectCode, idAlbum);
  if (viewer.member && viewer.member.memberId !== album.memberId && (await isBlockedBetween(env, viewer.member.memberId, album.memberId))) {
    throw new AppError("notFound");
  }
  return album;
}

/** §7 albums getById. A keyed album shows its photos only to the owner, grantees and holders of a live unlock. */
export async function getAlbum(env: Env, projectCode: string, idAlbum: number, viewer: AlbumViewer): Promise<Album> {
  const album = await visibleAlbum(env, projectCode, idAlbum, viewer);
  return albumView(env, album, viewer.member, await resolveAccess(env, album, viewer));
}

/**
 * The secret key, proven to the server: rate limited per viewer and album, then one attempt reserved in the
 * album's hourly budget (429801 when spent, even for the right key, so guessing cannot continue), then the
 * PBKDF2 check. A right key answers the album with its photos and seed and an unlock for its files.
 * Owner, open album and grantees need no key: they get their view and no unlock.
 */
export async function unlockAlbum(env: Env, projectCode: string, idAlbum: number, viewer: AlbumViewer, secretKey: string): Promise<{ album: Album; unlock: string | null }> {
  const album = await visibleAlbum(env, projectCode, idAlbum, viewer);
  const access = await resolveAccess(env, album, viewer);
  if (access === "owner" || access === "open" || access === "grant") return { album: await albumView(env, album, viewer.member, access), unlock: null };
  const memberId = viewer.member?.memberId ?? null;
  await rateLimit(env.RL_SENSITIVE, `album-key:${album.idAlbum}:${memberId ?? `addr:${viewer.address ?? "unknown"}`}`);
  const window = await reserveKeyAttempt(env, album, Date.now());
  if (window === null) throw new AppError("albumKeyBudget");
  if (!(await verifyKey(album, secretKey))) throw new AppError("albumKeyInvalid");
  await releaseKeyAttempt(env, album, window);
  return { album: await albumView(env, album, viewer.member, "key"), unlock: await issueUnlock(env, album, memberId) };
}

/** §7 member-albums getAll: titles for everyone; photo counts only where the viewer has access. */
export async function memberAlbums(env: Env, projectCode: string, memberNo: string, viewer: SessionMember | null): Promise<AlbumListItem[]> {
  const owner = await getDb(env)
    .select({ memberId: profiles.memberId })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!owner) throw new AppError("notFound");
  return albumsOf(env, owner.memberId, viewer);
}

/** The caller's own albums (the albums page). */
export const ownAlbums = (env: Env, member: SessionMember) => albumsOf(env, member.memberId, member);

async function albumsOf(env: Env, ownerId: string, viewer: SessionMember | null): Promise<AlbumListItem[]> {
  const db = getDb(env);
  const owner = { memberId: ownerId };
  const own = viewer?.memberId === owner.memberId;
  if (viewer && !own && (await isBlockedBetween(env, viewer.memberId, owner.memberId))) throw new AppError("notFound");
  const rows = await db.select().from(albums).where(eq(albums.memberId, owner.memberId)).orderBy(desc(albums.idAlbum)).limit(200);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.idAlbum);
  const granted = new Set(
    viewer && !own
      ? (await db.select({ idAlbum: albumGrants.idAlbum }).from(albumGrants).where(and(eq(albumGrants.memberId, viewer.memberId), inArray(albumGrants.idAlbum, ids)))).map((g) => g.idAlbum)
      : [],
  );
  const visible = rows.filter((r) => own || !r.keyHash || granted.has(r.idAlbum)).map((r) => r.idAlbum);
  const counts = new Map(
    visible.length
      ? (await db.select({ idAlbum: albumPhotos.idAlbum, n: count() }).from(albumPhotos).where(inArray(albumPhotos.idAlbum, visible)).groupBy(albumPhotos.idAlbum)).map((r) => [r.idAlbum, r.n])
      : [],
  );
  return rows.map((r) => ({
    idAlbum: r.idAlbum,
    title: r.title,
    secretKey: null,
    locked: Boolean(r.keyHash),
    timelog: iso(r.createdAt)!,
    ...(visible.includes(r.idAlbum) ? { photoCount: counts.get(r.idAlbum) ?? 0 } : {}),
  }));
}

async function deleteAlbumMedia(env: Env, keys: string[]) {
  if (keys.length) await deleteMedia(env, keys);
}

export async function deleteAlbum(env: Env, member: SessionMember, idAlbum: number) {
  const album = await ownAlbum(env, member, idAlbum);
  const db = getDb(env);
  const uploads = await db.select({ mediaKey: albumUploads.mediaKey }).from(albumUploads).where(eq(albumUploads.idAlbum, album.idAlbum));
  await db.batch([
    db.delete(albumPhotos).where(eq(albumPhotos.idAlbum, album.idAlbum)),
    db.delete(albumUploads).where(eq(albumUploads.idAlbum, album.idAlbum)),
    db.delete(albumGrants).where(eq(albumGrants.idAlbum, album.idAlbum)),
    db.delete(albumKeyAttempts).where(eq(albumKeyAttempts.idAlbum, album.idAlbum)),
    db.delete(albums).where(eq(albums.idAlbum, album.idAlbum)),
  ]);
  await deleteAlbumMedia(env, uploads.map((u) => u.mediaKey));
  return { idAlbum: album.idAlbum, deleted: true };
}

/**
 * Upload for one album. A keyed album's photo is shuffled with its seed before encoding and stored as lossless
 * PNG under the private `keyed` kind (served only by /private-media), so the unscrambled image never exists in
 * storage, the scrambled one is never public, and the browser can restore it exactly.
 */
export async function uploadFile(env: Env, member: SessionMember, idAlbum: number, file: File): Promise<UploadedFile> {
  const album = await ownAlbum(env, member, idAlbum);
  const seed = album.seedSealed ? await openSeed(env, album.seedSealed) : null;
  const stored = await storeImage(env, {
    projectCode: member.projectCode,
    memberNo: member.memberNo,
    kind: seed ? "keyed" : "album",
    bytes: await file.arrayBuffer(),
    transformPixels: seed
      ? (pixels, width, height) => {
          // Canvas pixels are premultiplied: only opaque pixels come back exactly, so flatten alpha first.
          for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
          return scramblePixels(pixels, width, height, seed);
        }
      : undefined,
  });
  await getDb(env)
    .insert(albumUploads)
    .values({ mediaKey: stored.key, idAlbum: album.idAlbum, projectCode: member.projectCode, memberId: member.memberId, scrambled: Boolean(seed), createdAt: now() });
  return { filePath: stored.url, width: stored.width, height: stored.height, scrambled: Boolean(seed) };
}

const OWN_MEDIA = /^(photo|cover|avatar)\/[A-Za-z0-9_-]+\.(jpg|png)$/;

/**
 * §7 photos create {idAlbum, filePath}. The path must be the member's own server media: an upload made for
 * this album, or (open albums only) one of their own photos. A keyed album accepts only its own scrambled
 * uploads (/private-media), so no unscrambled or public copy of its photos is ever reachable.
 */
export async function createPhoto(env: Env, member: SessionMember, body: { idAlbum: number; filePath: string; description: string }): Promise<Photo> {
  const album = await ownAlbum(env, member, body.idAlbum);
  const db = getDb(env);
  const key = album.keyHash ? privateMediaKeyFromUrl(body.filePath) : mediaKeyFromUrl(body.filePath);
  const prefix = `${member.projectCode}/${member.memberNo}/`;
  if (!key?.startsWith(prefix)) throw new AppError("albumFileNotAllowed");
  const upload = await db.select().from(albumUploads).where(eq(albumUploads.mediaKey, key)).get();
  if (upload) {
    if (upload.idAlbum !== album.idAlbum || upload.memberId !== member.memberId) throw new AppError("albumFileNotAllowed");
  } else {
    if (album.keyHash || !OWN_MEDIA.test(key.slice(prefix.length))) throw new AppError("albumFileNotAllowed");
    if (!(await env.MEDIA.head(key))) throw new AppError("albumFileNotAllowed");
  }
  const row = await db
    .insert(albumPhotos)
    .values({ idAlbum: album.idAlbum, projectCode: member.projectCode, memberId: member.memberId, filePath: mediaUrl(key), mediaKey: key, description: body.description, createdAt: now() })
    .returning()
    .get();
  return { idPhoto: row.idPhoto, idAlbum: row.idAlbum, filePath: row.filePath, description: row.description };
}

export async function deletePhoto(env: Env, member: SessionMember, idPhoto: number) {
  const db = getDb(env);
  const photo = await db
    .select()
    .from(albumPhotos)
    .where(and(eq(albumPhotos.idPhoto, idPhoto), eq(albumPhotos.projectCode, member.projectCode)))
    .get();
  if (!photo) throw new AppError("notFound");
  if (photo.memberId !== member.memberId) throw new AppError("notAlbumOwner");
  await db.delete(albumPhotos).where(eq(albumPhotos.idPhoto, idPhoto));
  // The file goes too when it was uploaded for the album and no other photo still shows it.
  const others = await db.select({ n: count() }).from(albumPhotos).where(eq(albumPhotos.mediaKey, photo.mediaKey)).get();
  const upload = await db.select().from(albumUploads).where(eq(albumUploads.mediaKey, photo.mediaKey)).get();
  if (upload && (others?.n ?? 0) === 0) {
    await db.delete(albumUploads).where(eq(albumUploads.mediaKey, photo.mediaKey));
    await deleteAlbumMedia(env, [photo.mediaKey]);
  }
  return { idPhoto, deleted: true };
}

export async function listGrants(env: Env, member: SessionMember, idAlbum: number): Promise<AlbumGrant[]> {
  const album = await ownAlbum(env, member, idAlbum);
  const viewer = await viewerFor(env, member.memberId);
  const rows = await getDb(env)
    .select({ profile: profileSummaryColumns, createdAt: albumGrants.createdAt })
    .from(albumGrants)
    .innerJoin(profiles, eq(profiles.memberId, albumGrants.memberId))
    .where(eq(albumGrants.idAlbum, album.idAlbum))
    .orderBy(asc(albumGrants.createdAt))
    .limit(500);
  return rows.map((r) => ({ profile: toProfileSummary(r.profile, viewer), timelog: iso(r.createdAt)! }));
}

async function grantee(env: Env, member: SessionMember, memberNo: string) {
  const row = await getDb(env)
    .select({ memberId: profiles.memberId })
    .from(profiles)
    .where(and(eq(profiles.projectCode, member.projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!row || (row.memberId !== member.memberId && (await isBlockedBetween(env, member.memberId, row.memberId)))) throw new AppError("notFound");
  if (row.memberId === member.memberId) throw new AppError("grantSelf");
  return row.memberId;
}

/** Per-viewer access: only keyed albums; open albums are visible to everyone anyway. */
export async function grant(env: Env, member: SessionMember, idAlbum: number, memberNo: string) {
  const album = await ownAlbum(env, member, idAlbum);
  if (!album.keyHash) throw new AppError("albumNotKeyed");
  const memberId = await grantee(env, member, memberNo);
  await getDb(env).insert(albumGrants).values({ idAlbum: album.idAlbum, memberId, projectCode: member.projectCode, createdAt: now() }).onConflictDoNothing();
  return listGrants(env, member, idAlbum);
}

/**
 * Revocation is immediate: the album and its /private-media files check the grant on every request, so a copied
 * link stops working at once. A grant that does not exist (never made, or already revoked) is not found.
 */
export async function revoke(env: Env, member: SessionMember, idAlbum: number, memberNo: string) {
  const album = await ownAlbum(env, member, idAlbum);
  const memberId = await grantee(env, member, memberNo);
  const removed = await getDb(env)
    .delete(albumGrants)
    .where(and(eq(albumGrants.idAlbum, album.idAlbum), eq(albumGrants.memberId, memberId)))
    .returning({ memberId: albumGrants.memberId });
  if (!removed.length) throw new AppError("notFound");
  return listGrants(env, member, idAlbum);
}

/**
 * May this viewer read this keyed album file (/private-media, re-checked on every request)? The owner, a live
 * grantee, or a holder of a live unlock; never another tenant or a member blocked either way. `unlockOf` reads
 * the album's unlock cookie once the album is known.
 */
export async function mayReadKeyedFile(env: Env, projectCode: string, mediaKey: string, member: SessionMember | null, unlockOf: (idAlbum: number) => string | undefined) {
  if (member && member.projectCode !== projectCode) return false;
  const row = await getDb(env)
    .select({ album: albums })
    .from(albumUploads)
    .innerJoin(albums, eq(albums.idAlbum, albumUploads.idAlbum))
    .where(and(eq(albumUploads.mediaKey, mediaKey), eq(albums.projectCode, projectCode)))
    .get();
  if (!row?.album.keyHash) return false;
  const album = row.album;
  if (member && member.memberId !== album.memberId && (await isBlockedBetween(env, member.memberId, album.memberId))) return false;
  const access = await resolveAccess(env, album, { member, address: null, unlock: unlockOf(album.idAlbum) });
  return access === "owner" || access === "grant" || access === "key";
}
