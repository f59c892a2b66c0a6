import { and, eq, sql } from "drizzle-orm";
import { mediaUrl } from "../../contract/media";
import { getDb } from "../../db/client";
import { albumPhotos, albumUploads, albums, profiles } from "../../db/schema";
import { randomString } from "../../lib/crypto";
import { scramblePixels, unscramblePixels } from "../../contract/scramble";
import { decodeImage, encodePng } from "../images/codecs";
import { newScrambleSeed, openLegacySeed, sealSeed } from "./album-seal";

type AlbumRow = typeof albums.$inferSelect;

/**
 * Keyed albums made before SEAL_SECRET had a seed derived from their key (a grantee given the seed could guess a
 * short key offline), sealed under JWT_SECRET, and their files under the public `album` kind. The first time such
 * an album is used, it gets a random seed sealed under SEAL_SECRET and every file is unscrambled with the old seed,
 * scrambled with the new one and stored under the private `keyed` kind; the old files are deleted. /media refuses
 * the old files from the start (media-serve.routes.ts), so nothing is reachable in between.
 * Two requests re-keying at once: the batch below applies only for the one whose seal is stored; the other's new
 * files are removed and it reads the winner's album.
 */
export async function rekeyLegacyAlbum(env: Env, album: AlbumRow): Promise<AlbumRow> {
  const db = getDb(env);
  const oldSeed = await openLegacySeed(env.JWT_SECRET, album.seedSealed!);
  const seed = newScrambleSeed();
  const sealed = await sealSeed(env.SEAL_SECRET, seed);
  const owner = await db.select({ memberNo: profiles.simpleCode }).from(profiles).where(eq(profiles.memberId, album.memberId)).get();
  const uploads = await db.select({ mediaKey: albumUploads.mediaKey }).from(albumUploads).where(eq(albumUploads.idAlbum, album.idAlbum));
  const moved: { from: string; to: string }[] = [];
  const gone: string[] = [];
  for (const upload of uploads) {
    const object = owner ? await env.MEDIA.get(upload.mediaKey) : null;
    if (!object) {
      gone.push(upload.mediaKey);
      continue;
    }
    const image = await decodeImage(new Uint8Array(await object.arrayBuffer()), "png");
    const plain = unscramblePixels(image.data, image.width, image.height, oldSeed);
    const to = `${album.projectCode}/${owner!.memberNo}/keyed/${randomString(24)}.png`;
    await env.MEDIA.put(to, await encodePng({ data: scramblePixels(plain, image.width, image.height, seed), width: image.width, height: image.height }), {
      httpMetadata: { contentType: "image/png" },
    });
    moved.push({ from: upload.mediaKey, to });
  }

  // Every statement after the first applies only if the first stored this request's seal.
  const ours = sql`exists (select 1 from albums where id_album = ${album.idAlbum} and seed_sealed = ${sealed})`;
  await db.batch([
    db.update(albums).set({ seedSealed: sealed }).where(and(eq(albums.idAlbum, album.idAlbum), eq(albums.seedSealed, album.seedSealed!))),
    ...moved.flatMap(({ from, to }) => [
      db.update(albumUploads).set({ mediaKey: to }).where(and(eq(albumUploads.mediaKey, from), ours)),
      db.update(albumPhotos).set({ mediaKey: to, filePath: mediaUrl(to) }).where(and(eq(albumPhotos.mediaKey, from), eq(albumPhotos.idAlbum, album.idAlbum), ours)),
    ]),
    // Files that no longer exist leave no photo pointing at a public address.
    ...gone.flatMap((key) => [
      db.delete(albumPhotos).where(and(eq(albumPhotos.mediaKey, key), eq(albumPhotos.idAlbum, album.idAlbum), ours)),
      db.delete(albumUploads).where(and(eq(albumUploads.mediaKey, key), ours)),
    ]),
  ] as unknown as Parameters<typeof db.batch>[0]);
  const after = await db.select().from(albums).where(eq(albums.idAlbum, album.idAlbum)).get();
  const won = after?.seedSealed === sealed;
  const leftovers = won ? moved.map((m) => m.from) : moved.map((m) => m.to);
  if (leftovers.length) await env.MEDIA.delete(leftovers);
  if (!after) throw new Error("album vanished while being re-keyed");
  return after;
}
