import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types";

/**
 * Pages (their HTML and React Router's data requests) revalidate on every visit and stay out of shared caches: they
 * carry one member's view (README Decisions "Browser caching"). Only hashed assets are immutable (public/_headers).
 */
export const pageCacheControl = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "private, no-cache");
});
