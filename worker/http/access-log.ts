import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types";

/**
 * One structured JSON line per request (API, pages, media, sockets), carrying the request id (Workers Logs /
 * `wrangler tail` index it). Never logs bodies, tokens or query strings: they can hold intimate data.
 */
export const accessLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  // Local dev and tests have wrangler's own request log; structured lines are for deployed environments.
  if (c.env.APP_ENV === "development") return;
  const path = new URL(c.req.url).pathname;
  console.log(
    JSON.stringify({
      level: c.res.status >= 500 ? "error" : "info",
      requestId: c.get("requestId"),
      method: c.req.method,
      path,
      status: c.res.status,
      ms: Date.now() - started,
      member: c.get("member")?.memberNo,
    }),
  );
});
