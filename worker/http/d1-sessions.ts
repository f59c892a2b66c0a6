import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import {
  BOOKMARK_COOKIE,
  BOOKMARK_COOKIE_MAX_AGE,
  BOOKMARK_HEADER,
  currentD1Binding,
  inD1Session,
  isBookmark,
  realBinding,
  sessionEnv,
  sessionStart,
} from "../db/d1-session";
import { databaseFor, requestTenant, type ApiProjectLocator } from "../db/router";
import { flushDeferredWrites, hasDeferredWrites } from "../db/deferred-writes";
import type { AppEnv } from "./types";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one place a request's D1 is set up (worker/db/client.ts "One way to reach D1"), in one visible step:
 * 1. its database: the tenant the request names, through the router (db/router.ts, README Decisions "A tenant per
 *    database"); a page's in-process API calls stay on the page's database;
 * 2. its D1 session (worker/db/d1-session.ts, README Decisions "D1 read replicas through sessions"): handlers see
 *    `c.env.DB` routed to it, so `getDb(c.env)` and every service taking `env` read and write through the session
 *    without knowing;
 * 3. the frame the session guard is armed in (requireSession, features/session/session-guard.ts): this request's
 *    statements and batches carry its session check, and no other request's.
 */
export const d1Sessions = (apiProject: ApiProjectLocator) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const carried = c.req.header(BOOKMARK_HEADER) ?? getCookie(c, BOOKMARK_COOKIE);
    const db = currentD1Binding() ?? databaseFor(c.env, requestTenant(c.req.raw, apiProject));
    const env = c.env;
    const serves = (tenant: string) => realBinding(databaseFor(env, tenant)) === realBinding(db);
    c.env = sessionEnv(c.env, db);
    const { bookmark, opened } = await inD1Session(c.env.DB, sessionStart(c.req.method, carried), next, serves);
    // Writes a read caused (page views, footprints, keyword counts) go to the primary after the response, batched.
    if (opened && hasDeferredWrites()) afterResponse(c, flushDeferredWrites());
    if (!opened || !isBookmark(bookmark) || c.res.status === 101) return;
    try {
      c.res.headers.set(BOOKMARK_HEADER, bookmark);
      // After a write the browser's next page load reads through it (the cookie rides on navigations; the header
      // is for clients that keep it themselves). A bookmark says nothing about the member: only a commit position.
      if (!SAFE_METHODS.has(c.req.method) && bookmark !== carried) {
        const secure = new URL(c.req.url).protocol === "https:" ? "; Secure" : "";
        c.res.headers.append("Set-Cookie", `${BOOKMARK_COOKIE}=${bookmark}; Max-Age=${BOOKMARK_COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax${secure}`);
      }
    } catch {
      // Immutable headers (a proxied response): the next read simply starts unconstrained.
    }
  });

function afterResponse(c: Context<AppEnv>, work: Promise<void>) {
  const logged = work.catch((error) => console.warn(JSON.stringify({ level: "warn", message: "deferred writes failed", error: String(error) })));
  try {
    c.executionCtx.waitUntil(logged);
  } catch {
    // No execution context (a test's app.request): the promise still runs.
  }
}
