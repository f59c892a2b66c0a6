import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { albumUnlockCookie } from "../../contract/albums.constants";
import { notFound } from "../../http/envelope";
import { optionalMember } from "../session/auth";
import type { AppEnv } from "../../http/types";
import { mayReadKeyedFile } from "../albums/albums.service";
import { mayReadChatImage } from "../chat/chat-media";

/** Private kinds only: keyed albums' scrambled files and images of private messages. */
const PRIVATE_KEY = /^([A-Z]{3})\/\d{1,12}\/(?:(keyed|dm)\/[A-Za-z0-9_-]+\.(?:jpg|png)|(e2e)\/[A-Za-z0-9_-]+\.bin)$/;

const NO_STORE = "private, no-store";

function refused(c: Context<AppEnv>) {
  const response = notFound(c);
  response.headers.set("Cache-Control", NO_STORE);
  return response;
}

/**
 * GET /private-media/<key> (README Decisions "Private media"): the viewer is checked on EVERY request — a keyed
 * album's file for its owner, a live grantee or a holder of a live unlock cookie; a private message's image for its
 * sender and recipient — and the answer is never cached anywhere (`private, no-store`), so a revocation, a block
 * or a deleted message takes effect on the next load. Anyone else (a revoked grantee, another member, another
 * tenant, a visitor) gets the same 404 as a key that does not exist. Same-origin `<img>` loads carry the session
 * cookie and the unlock cookie, so pages need nothing else.
 */
export const privateMediaServe = new Hono<AppEnv>().get("/*", async (c) => {
  let key: string;
  try {
    key = decodeURIComponent(new URL(c.req.url).pathname.slice("/private-media/".length));
  } catch {
    return refused(c);
  }
  const match = PRIVATE_KEY.exec(key);
  if (!match) return refused(c);
  const projectCode = match[1]!;
  const kind = (match[2] ?? match[3]) as "keyed" | "dm" | "e2e";
  const member = await optionalMember(c);
  const allowed =
    kind === "keyed"
      ? await mayReadKeyedFile(c.env, projectCode, key, member, (idAlbum) => getCookie(c, albumUnlockCookie(idAlbum)))
      : await mayReadChatImage(c.env, projectCode, key, member);
  if (!allowed) return refused(c);
  const object = await c.env.MEDIA.get(key);
  if (!object) return refused(c);
  return new Response(object.body, {
    headers: {
      "Content-Type": kind === "e2e" ? "application/octet-stream" : key.endsWith(".png") ? "image/png" : "image/jpeg",
      "Cache-Control": NO_STORE,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Referrer-Policy": "no-referrer",
    },
  });
});
