import { Hono } from "hono";
import type { AppEnv } from "../../http/types";
import { notFound } from "../../http/envelope";
import { cachedMedia, keepMedia } from "../images/edge-cache";

/**
 * Public kinds only. Private kinds (keyed, dm) are served by /private-media after an access check. An `album` file
 * in PNG is a keyed album's scrambled file from before /private-media existed (open albums' files are JPEG): never
 * public either, until the album is re-keyed onto the private kind (albums-legacy.ts).
 */
const SAFE_KEY = /^[A-Z]{3}\/[A-Za-z0-9_-]+\/((avatar|photo|cover|ai|logo|blur)\/[A-Za-z0-9_-]+\.(jpg|png)|album\/[A-Za-z0-9_-]+\.jpg)$/;

const BROWSER_CACHE = "public, max-age=31536000, immutable";

/**
 * GET /media/<key>: R2 objects with immutable caching; only image types we wrote ourselves, public kinds only.
 * Repeat loads come from the edge cache (edge-cache.ts), purged when the member deletes the item or the account.
 */
export const mediaServe = new Hono<AppEnv>().get("/*", async (c) => {
  let key: string;
  try {
    key = decodeURIComponent(new URL(c.req.url).pathname.slice("/media/".length));
  } catch {
    return notFound(c);
  }
  if (!SAFE_KEY.test(key)) return notFound(c);
  const cached = await cachedMedia(key, BROWSER_CACHE);
  if (cached) return cached;
  const object = await c.env.MEDIA.get(key);
  if (!object) return notFound(c);
  const response = new Response(object.body, {
    headers: {
      "Content-Type": key.endsWith(".png") ? "image/png" : "image/jpeg",
      "Cache-Control": BROWSER_CACHE,
      ETag: object.httpEtag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
  const kept = keepMedia(key, response.clone()).catch(() => undefined);
  try {
    c.executionCtx.waitUntil(kept);
  } catch {
    await kept;
  }
  return response;
});
