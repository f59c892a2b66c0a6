import { Hono } from "hono";
import type { AppEnv } from "../../http/types";
import { notFound } from "../../http/envelope";

/**
 * Public kinds only. Private kinds (keyed, dm) are served by /private-media after an access check. An `album` file
 * in PNG is a keyed album's scrambled file from before /private-media existed (open albums' files are JPEG): never
 * public either, until the album is re-keyed onto the private kind (albums-legacy.ts).
 */
const SAFE_KEY = /^[A-Z]{3}\/[A-Za-z0-9_-]+\/((avatar|photo|cover|ai|logo|blur)\/[A-Za-z0-9_-]+\.(jpg|png)|album\/[A-Za-z0-9_-]+\.jpg)$/;

/** GET /media/<key>: R2 objects with immutable caching; only image types we wrote ourselves, public kinds only. */
export const mediaServe = new Hono<AppEnv>().get("/*", async (c) => {
  const key = decodeURIComponent(new URL(c.req.url).pathname.slice("/media/".length));
  if (!SAFE_KEY.test(key)) return notFound(c);
  const object = await c.env.MEDIA.get(key);
  if (!object) return notFound(c);
  return new Response(object.body, {
    headers: {
      "Content-Type": key.endsWith(".png") ? "image/png" : "image/jpeg",
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: object.httpEtag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
});
