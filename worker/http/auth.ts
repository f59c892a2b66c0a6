import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../contract/session";
import { memberFromTicket, memberFromToken } from "../features/session/session.service";
import { AppError } from "./app-error";
import type { AppEnv } from "./types";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Private routes (§7): `X-Access-Token` + `X-Member-ID` (32-char token), `Authorization: Bearer <jwt>`,
 * or the HttpOnly session cookie set at login. Cookie-authenticated writes must come from our own origin.
 * Missing credentials → 401; present but invalid or expired → 100003 so the client goes to login.
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.req.header("X-Access-Token");
  const memberId = c.req.header("X-Member-ID");
  const bearer = c.req.header("Authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];

  if (token || memberId) {
    if (!token || !memberId) throw new AppError("sessionInvalid");
    const member = await memberFromToken(c.env, memberId, token);
    if (!member) throw new AppError("sessionInvalid");
    c.set("member", member);
  } else if (bearer) {
    const member = await memberFromTicket(c.env, bearer, "api");
    if (!member) throw new AppError("sessionInvalid");
    c.set("member", member);
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) throw new AppError("unauthorized");
    const [cookieMember, cookieToken] = cookie.split(".");
    const member = cookieMember && cookieToken ? await memberFromToken(c.env, cookieMember, cookieToken) : null;
    if (!member) throw new AppError("sessionInvalid");
    if (!SAFE_METHODS.has(c.req.method) && !isSameOrigin(c.req.raw)) throw new AppError("forbidden");
    c.set("member", member);
  }
  await next();
});

/** A cookie write must carry our Origin (or, lacking it, a same-origin fetch-site). */
function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}
