import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { ALBUM_UNLOCK_SECONDS, CreateAlbumBody, CreatePhotoBody, GrantBody, IdAlbumParam, IdPhotoParam, UnlockBody, albumUnlockCookie } from "../../contract/albums";
import { MemberNo, numeric } from "../../contract/common";
import { ok } from "../../contract/envelope";
import { AppError } from "../../lib/app-error";
import { closedTo } from "../members/profile-access";
import { clientAddress, rateLimit } from "../../http/rate-limit";
import { parseProjectCode } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { readUploadForm } from "../images/upload-body";
import * as albums from "./albums.service";
import type { AlbumViewer } from "./albums.service";

const PublicAlbumParam = z.object({ project: z.string(), idAlbum: numeric().pipe(z.number().int().positive()) });
const MemberAlbumsParam = z.object({ memberNo: MemberNo });
const PublicMemberAlbumsParam = z.object({ project: z.string(), memberNo: MemberNo });
const GrantParam = z.object({ idAlbum: numeric().pipe(z.number().int().positive()), memberNo: MemberNo });

/** A secret key never travels in an address (logs, history, referrers): the key goes in the unlock call's body. */
function refuseKeyInAddress(c: Context<AppEnv>) {
  if (c.req.query("secretKey") !== undefined) throw new AppError("albumKeyInAddress");
}

function viewerOf(c: Context<AppEnv>, member: AlbumViewer["member"], idAlbum: number): AlbumViewer {
  return { member, address: clientAddress(c), unlock: getCookie(c, albumUnlockCookie(idAlbum)) };
}

/** The unlock rides in an HttpOnly cookie, so the album's <img> loads (same origin) carry it and no URL does. */
function rememberUnlock(c: Context<AppEnv>, idAlbum: number, unlock: string | null) {
  if (!unlock) return;
  setCookie(c, albumUnlockCookie(idAlbum), unlock, {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    path: "/",
    maxAge: ALBUM_UNLOCK_SECONDS,
  });
}

/** §6: visitors may view public albums (a keyed one after the key). Paths are listed in worker/contract/albums.ts. */
export const albumsPublic = new Hono<AppEnv>()
  .get("/sns/albums/:project/:idAlbum", validate("param", PublicAlbumParam), async (c) => {
    refuseKeyInAddress(c);
    const { project, idAlbum } = c.req.valid("param");
    return c.json(ok(await albums.getAlbum(c.env, parseProjectCode(project), idAlbum, viewerOf(c, null, idAlbum))));
  })
  .post("/sns/albums/:project/:idAlbum/unlock", validate("param", PublicAlbumParam), validate("json", UnlockBody), async (c) => {
    const { project, idAlbum } = c.req.valid("param");
    const result = await albums.unlockAlbum(c.env, parseProjectCode(project), idAlbum, viewerOf(c, null, idAlbum), c.req.valid("json").secretKey);
    rememberUnlock(c, idAlbum, result.unlock);
    return c.json(ok(result.album));
  })
  .get("/sns/member-albums/:project/:memberNo", validate("param", PublicMemberAlbumsParam), async (c) => {
    const { project, memberNo } = c.req.valid("param");
    // A closed profile's albums are not listed to those it is closed to (profile-access.ts).
    if (await closedTo(c.env, parseProjectCode(project), memberNo, null)) return c.json(ok([]));
    return c.json(ok(await albums.memberAlbums(c.env, parseProjectCode(project), memberNo, null)));
  });

export const albumsPrivate = new Hono<AppEnv>()
  .post("/sns/albums", validate("json", CreateAlbumBody), async (c) => {
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await albums.createAlbum(c.env, member, c.req.valid("json"))));
  })
  .get("/sns/albums", async (c) => c.json(ok(await albums.ownAlbums(c.env, c.get("member")))))
  .get("/sns/albums/:idAlbum", validate("param", IdAlbumParam), async (c) => {
    refuseKeyInAddress(c);
    const member = c.get("member");
    const { idAlbum } = c.req.valid("param");
    return c.json(ok(await albums.getAlbum(c.env, member.projectCode, idAlbum, viewerOf(c, member, idAlbum))));
  })
  .post("/sns/albums/:idAlbum/unlock", validate("param", IdAlbumParam), validate("json", UnlockBody), async (c) => {
    const member = c.get("member");
    const { idAlbum } = c.req.valid("param");
    const result = await albums.unlockAlbum(c.env, member.projectCode, idAlbum, viewerOf(c, member, idAlbum), c.req.valid("json").secretKey);
    rememberUnlock(c, idAlbum, result.unlock);
    return c.json(ok(result.album));
  })
  .delete("/sns/albums/:idAlbum", validate("param", IdAlbumParam), async (c) =>
    c.json(ok(await albums.deleteAlbum(c.env, c.get("member"), c.req.valid("param").idAlbum))),
  )
  .get("/sns/member-albums/:memberNo", validate("param", MemberAlbumsParam), async (c) => {
    const member = c.get("member");
    if (await closedTo(c.env, member.projectCode, c.req.valid("param").memberNo, member.memberId)) return c.json(ok([]));
    return c.json(ok(await albums.memberAlbums(c.env, member.projectCode, c.req.valid("param").memberNo, member)));
  })
  .post("/sns/albums/:idAlbum/files", validate("param", IdAlbumParam), async (c) => {
    const member = c.get("member");
    const file = (await readUploadForm(c)).get("file");
    if (!(file instanceof File)) throw new AppError("badRequest", { message: "Expected multipart form data with a file" });
    return c.json(ok(await albums.uploadFile(c.env, member, c.req.valid("param").idAlbum, file)));
  })
  .post("/sns/photos", validate("json", CreatePhotoBody), async (c) => c.json(ok(await albums.createPhoto(c.env, c.get("member"), c.req.valid("json")))))
  .delete("/sns/photos/:idPhoto", validate("param", IdPhotoParam), async (c) =>
    c.json(ok(await albums.deletePhoto(c.env, c.get("member"), c.req.valid("param").idPhoto))),
  )
  .get("/sns/albums/:idAlbum/grants", validate("param", IdAlbumParam), async (c) =>
    c.json(ok(await albums.listGrants(c.env, c.get("member"), c.req.valid("param").idAlbum))),
  )
  .post("/sns/albums/:idAlbum/grants", validate("param", IdAlbumParam), validate("json", GrantBody), async (c) =>
    c.json(ok(await albums.grant(c.env, c.get("member"), c.req.valid("param").idAlbum, c.req.valid("json").memberNo))),
  )
  .delete("/sns/albums/:idAlbum/grants/:memberNo", validate("param", GrantParam), async (c) => {
    const { idAlbum, memberNo } = c.req.valid("param");
    return c.json(ok(await albums.revoke(c.env, c.get("member"), idAlbum, memberNo)));
  });
