import { Hono } from "hono";
import type { AppEnv } from "../../http/types";
import { notFound } from "../../http/envelope";

const SAFE_KEY = /^[A-Z]{3}\/[A-Za-z0-9_-]+\/(avatar|photo|cover|album|ai|blur)\/[A-Za-z0-9_-]+\.(jpg|png)$/;

/** GET /media/<key>: R2 objects with immutable caching; only image types we wrote ourselves. */
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
