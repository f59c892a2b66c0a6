import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ok } from "../../contract/envelope";
import {
  LineAuthorizeBody,
  LineCodeBody,
  LineSignUpBody,
  type LineAuthorization,
  type LineAvailability,
  type LineLoginResult,
} from "../../contract/line";
import { rateLimit, rateLimitAddress } from "../../http/rate-limit";
import { parseProjectCode, requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { setSessionCookies } from "../session/session.routes";
import {
  LINE_SIGNUP_COOKIE,
  LINE_STATE_COOKIE,
  LINE_STATE_TTL,
  bindLine,
  checkRedirectUrl,
  completeAuthorization,
  lineBinding,
  lineConfig,
  loginWithLine,
  requireLineConfig,
  signUpWithLine,
  startAuthorization,
  unbindLine,
} from "./line.service";

/** Our origins a callback may be on: the configured one and the one the request came to (README "LINE login"). */
const origins = (c: Context<AppEnv>) => [...new Set([c.env.PUBLIC_ORIGIN, new URL(c.req.url).origin].filter(Boolean))];

/** HttpOnly, ten minutes, only sent to the API; one cookie per kind of ticket. */
function setTicketCookie(c: Context<AppEnv>, name: string, value: string) {
  setCookie(c, name, value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    path: "/api/",
    maxAge: LINE_STATE_TTL / 1000,
  });
}
const clearTicketCookie = (c: Context<AppEnv>, name: string) => deleteCookie(c, name, { path: "/api/" });

export const linePublic = new Hono<AppEnv>()
  // Pages show the LINE button only when this says so.
  .get("/core/line/:project", (c) => {
    parseProjectCode(c.req.param("project"));
    return c.json(ok<LineAvailability>({ enabled: lineConfig(c.env) !== null }));
  })
  .post("/core/line/:project/authorize", validate("json", LineAuthorizeBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    requireLineConfig(c.env);
    await rateLimitAddress(c, "line");
    const redirectUrl = checkRedirectUrl(c.req.valid("json").redirectUrl, projectCode, origins(c));
    const { authorizeUrl, state } = await startAuthorization(c.env, { projectCode, purpose: "login", memberId: null, redirectUrl });
    setTicketCookie(c, LINE_STATE_COOKIE, state);
    return c.json(ok<LineAuthorization>({ authorizeUrl }));
  })
  // §7 LINE login (code, redirectUrl): a bound member gets the password login's session and cookies.
  .post("/core/sessions/:project/line", validate("json", LineCodeBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    requireLineConfig(c.env);
    await rateLimitAddress(c, "login");
    const body = c.req.valid("json");
    const cookieState = getCookie(c, LINE_STATE_COOKIE);
    clearTicketCookie(c, LINE_STATE_COOKIE);
    const lineSubHash = await completeAuthorization(c.env, { projectCode, purpose: "login", memberId: null, ...body, cookieState });
    const result = await loginWithLine(c.env, projectCode, lineSubHash);
    if ("session" in result) {
      await setSessionCookies(c, result.session);
      return c.json(ok<LineLoginResult>(result.session));
    }
    setTicketCookie(c, LINE_SIGNUP_COOKIE, result.ticket);
    return c.json(ok<LineLoginResult>({ needsRegistration: true }));
  })
  // A LINE user new to this tenant becomes a member only after the adult confirmation (§1).
  .post("/core/members/:project/line", validate("json", LineSignUpBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    requireLineConfig(c.env);
    await rateLimitAddress(c, "signup");
    const ticket = getCookie(c, LINE_SIGNUP_COOKIE);
    clearTicketCookie(c, LINE_SIGNUP_COOKIE);
    const info = await signUpWithLine(c.env, projectCode, ticket);
    await setSessionCookies(c, info);
    return c.json(ok(info));
  });

export const linePrivate = new Hono<AppEnv>()
  .get("/core/members/line/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await lineBinding(c.env, member)));
  })
  .post("/core/members/line/:memberId/authorize", validate("json", LineAuthorizeBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    requireLineConfig(c.env);
    await rateLimit(c.env.RL_SENSITIVE, `line-bind:${member.memberId}`);
    const redirectUrl = checkRedirectUrl(c.req.valid("json").redirectUrl, member.projectCode, origins(c));
    const { authorizeUrl, state } = await startAuthorization(c.env, { projectCode: member.projectCode, purpose: "bind", memberId: member.memberId, redirectUrl });
    setTicketCookie(c, LINE_STATE_COOKIE, state);
    return c.json(ok<LineAuthorization>({ authorizeUrl }));
  })
  // §7 LINE bind (code, redirectUrl): the state must have been started by this member.
  .post("/core/members/line/:memberId", validate("json", LineCodeBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    requireLineConfig(c.env);
    const body = c.req.valid("json");
    const cookieState = getCookie(c, LINE_STATE_COOKIE);
    clearTicketCookie(c, LINE_STATE_COOKIE);
    const lineSubHash = await completeAuthorization(c.env, { projectCode: member.projectCode, purpose: "bind", memberId: member.memberId, ...body, cookieState });
    await bindLine(c.env, member, lineSubHash);
    return c.json(ok(await lineBinding(c.env, member)));
  })
  // §7 LINE unbind: works even after LINE is switched off, so nobody is stuck with a binding.
  .delete("/core/members/line/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await unbindLine(c.env, member);
    return c.json(ok(await lineBinding(c.env, member)));
  });
