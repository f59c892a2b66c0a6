import { Hono, type Context } from "hono";
import { z } from "zod";
import { ok } from "../../contract/envelope";
import { IdParam, MemberNo, pageSize } from "../../contract/common";
import { BannerRatingBody, BannerSizeBody, NewBannerBody, UploadKind, type UploadInfo } from "../../contract/profiles";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { closedTo, seenAsVisitor } from "../members/profile-access";
import { requireSession } from "../session/auth";
import { parseProjectCode, requireSelf, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { eq, sql } from "drizzle-orm";
import { viewerFor } from "../members/profile-summary";
import { actionStatement } from "../members/action-stats";
import { recordChatImageStatement } from "../chat/chat-media";
import * as banners from "./banners.service";
import { MAX_UPLOAD_BYTES, storeImage } from "../images/image-pipeline";
import { readUploadForm } from "../images/upload-body";
import { storeEncryptedImage } from "./encrypted-media";
import { scramblePixels, seedToHex } from "../../contract/scramble";

type Ctx = Context<AppEnv>;
const LOGO_MAX_SIDE = 256;

/**
 * Multipart upload (§7 files): field `file` (or `image`), optional `type` avatar|photo|private (default photo).
 * An avatar must be square, is stored 300x300 and becomes the member's `avator`, qualified unless graphic (§5);
 * a graphic avatar raises `unqualifiedCount`. `private` is an image for a private message: its `url` is a
 * /private-media address only its sender (and, once sent, the recipient) can load. `encrypted` is the same for bytes
 * the browser encrypted end to end (encrypted-media.ts): stored as sent, never decoded.
 */
async function upload(c: Ctx): Promise<UploadInfo> {
  const member = c.get("member");
  const form = await readUploadForm(c);
  const file = form.get("file") ?? form.get("image");
  if (!file || typeof file === "string") throw new AppError("uploadMissing");
  const kindResult = UploadKind.safeParse(form.get("type") ?? "photo");
  if (!kindResult.success) throw new AppError("badRequest", { message: "type must be avatar, photo, private, logo or encrypted" });
  const kind = kindResult.data;
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("tooLarge");
  // §4 encoded images (chat photos and private images, never avatars): scrambled with a fresh random seed, which
  // only the uploader gets back, to put in the message that carries the image.
  const encode = form.get("encode") === "true";
  if (encode && kind === "avatar") throw new AppError("badRequest", { message: "An avatar cannot be encoded" });
  if (kind === "encrypted") {
    if (encode) throw new AppError("badRequest", { message: "An encrypted image cannot be encoded" });
    return storeEncryptedImage(c.env, member, file);
  }
  const seed = encode ? crypto.getRandomValues(new Uint8Array(32)) : null;
  let stored: Awaited<ReturnType<typeof storeImage>>;
  try {
    stored = await storeImage(c.env, {
      projectCode: member.projectCode,
      memberNo: member.memberNo,
      kind: kind === "private" ? "dm" : kind,
      bytes: await file.arrayBuffer(),
      square: kind === "avatar",
      // A creator link's logo is shown small: stored at most LOGO_MAX_SIDE on its longest side.
      ...(kind === "logo" ? { maxSide: LOGO_MAX_SIDE } : {}),
      // Renditions are for what visitors may see in place of the original; private images are never shown to them.
      rendition: kind !== "private",
      ...(seed ? { transformPixels: (pixels: Uint8Array, width: number, height: number) => scramblePixels(pixels, width, height, seed) } : {}),
    });
  } catch (error) {
    if (error instanceof AppError && error.message === "Avatar must be square") throw new AppError("avatarNotSquare");
    throw error;
  }
  const db = getDb(c.env);
  if (kind === "private") {
    // Not a media upload others may reuse (banners, avatars): only a private message can carry it.
    await db.batch([recordChatImageStatement(db, { key: stored.key, projectCode: member.projectCode, memberId: member.memberId }), actionStatement(c.env, member.projectCode, member.memberId)]);
    return { key: stored.key, url: stored.url, width: stored.width, height: stored.height, graphic: stored.graphic, ...(seed ? { scrambleKey: seedToHex(seed) } : {}) };
  }
  const record = banners.recordUploadStatement(c.env, {
    key: stored.key,
    projectCode: member.projectCode,
    memberId: member.memberId,
    kind,
    width: stored.width,
    height: stored.height,
    graphic: stored.graphic,
    renditionKey: stored.rendition?.key ?? null,
    contentHash: stored.contentHash,
  });
  if (kind !== "avatar") {
    await db.batch([record, actionStatement(c.env, member.projectCode, member.memberId)]);
    return { key: stored.key, url: stored.url, width: stored.width, height: stored.height, graphic: stored.graphic, ...(seed ? { scrambleKey: seedToHex(seed) } : {}) };
  }
  // The file an operator took down, uploaded again, is refused and not kept (README "Moderation instead of mob rule").
  const current = await db.select({ takedown: profiles.avatorTakedownHash }).from(profiles).where(eq(profiles.memberId, member.memberId)).get();
  if (current?.takedown && current.takedown === stored.contentHash) {
    await c.env.MEDIA.delete([stored.key, ...(stored.rendition ? [stored.rendition.key] : [])]);
    throw new AppError("avatarTakenDown");
  }
  await db.batch([
    record,
    db
      .update(profiles)
      .set({
        avator: stored.url,
        avatorBlur: stored.rendition?.url ?? "",
        qualify: !stored.graphic,
        unqualifiedCount: stored.graphic ? sql`${profiles.unqualifiedCount} + 1` : profiles.unqualifiedCount,
        updatedAt: Date.now(),
      })
      .where(eq(profiles.memberId, member.memberId)),
    actionStatement(c.env, member.projectCode, member.memberId),
  ]);
  const row = await db.select({ qualify: profiles.qualify, unqualifiedCount: profiles.unqualifiedCount }).from(profiles).where(eq(profiles.memberId, member.memberId)).get();
  return { key: stored.key, url: stored.url, width: stored.width, height: stored.height, graphic: stored.graphic, qualify: row!.qualify, unqualifiedCount: row!.unqualifiedCount };
}

const BannerListQuery = z.object({ pageSize: pageSize(48, 200) });
const UserBannersQuery = z.object({ project: z.string().optional() });

export const mediaPublic = new Hono<AppEnv>()
  .get("/core/banners/users/:id", validate("param", z.object({ id: MemberNo })), validate("query", UserBannersQuery), async (c) => {
    const project = parseProjectCode(c.req.valid("query").project ?? c.env.DEFAULT_PROJECT);
    // A closed profile's photos: none for those it is closed to (profile-access.ts).
    if (await closedTo(c.env, project, c.req.valid("param").id, null)) return c.json(ok([]));
    return c.json(ok(await banners.memberBanners(c.env, project, c.req.valid("param").id, null)));
  })
  .get("/core/banners/:project", validate("query", BannerListQuery), async (c) => {
    const project = parseProjectCode(c.req.param("project"));
    return c.json(ok(await banners.projectBanners(c.env, project, null, c.req.valid("query").pageSize)));
  });

export const mediaPrivate = new Hono<AppEnv>()
  .post("/core/files/:project/:memberId", async (c) => {
    sessionProject(c, c.req.param("project"));
    requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await upload(c)));
  })
  .post("/core/files/:memberId", async (c) => {
    requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await upload(c)));
  })
  .get("/core/banners/review/:project", async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    const viewer = (await viewerFor(c.env, c.get("member").memberId))!;
    return c.json(ok(await banners.reviewBanners(c.env, project, viewer)));
  })
  .get("/core/banners/users/:id", validate("param", z.object({ id: MemberNo })), async (c) => {
    const member = c.get("member");
    if (await closedTo(c.env, member.projectCode, c.req.valid("param").id, member.memberId)) return c.json(ok([]));
    // A member who approves followers: renditions, as a visitor gets them, for members they have not accepted.
    const viewer = (await seenAsVisitor(c.env, member.projectCode, c.req.valid("param").id, member.memberId)) ? null : await viewerFor(c.env, member.memberId);
    return c.json(ok(await banners.memberBanners(c.env, member.projectCode, c.req.valid("param").id, viewer)));
  })
  .get("/core/banners/:project", validate("query", BannerListQuery), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    const viewer = await viewerFor(c.env, c.get("member").memberId);
    return c.json(ok(await banners.projectBanners(c.env, project, viewer, c.req.valid("query").pageSize)));
  })
  .patch("/core/banners/size/:id", validate("param", z.object({ id: IdParam })), validate("json", BannerSizeBody), async (c) => {
    const member = c.get("member");
    return c.json(ok(await banners.resizeBanner(c.env, c.req.valid("param").id, member.memberId, c.req.valid("json"))));
  })
  .post("/core/banners/:memberId", validate("json", NewBannerBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await banners.createBanner(c.env, member, c.req.valid("json"))));
  })
  .delete("/core/banners/:id/:memberId", validate("param", z.object({ id: IdParam, memberId: z.string() })), async (c) => {
    const member = requireSelf(c, c.req.valid("param").memberId);
    await banners.deleteBanner(c.env, c.req.valid("param").id, member.memberId);
    return c.json(ok({ deleted: true }));
  })
  // §9: the original of a blurred photo after the 10-tap reveal, for a signed-in member (README Decisions on renditions).
  .post("/core/banners/:id/reveal", validate("param", z.object({ id: IdParam })), async (c) => {
    return c.json(ok(await banners.revealBanner(c.env, c.get("member"), c.req.valid("param").id)));
  })
  .post("/sns/banner-ratings", validate("json", BannerRatingBody), async (c) => {
    const member = c.get("member");
    const body = c.req.valid("json");
    return c.json(ok(await banners.rateBanner(c.env, member, body.idBanner, body.rating)));
  });

/** POST /api/v3/storage (§7): the same upload outside the versioned API, behind the same session check. */
export const storageApi = new Hono<AppEnv>().use(requireSession).post("/storage", async (c) => c.json(ok(await upload(c))));
