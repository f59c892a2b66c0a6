import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ok } from "../../contract/envelope";
import {
  ChangePasswordBody,
  ForgetPasswordBody,
  LANGUAGE_COOKIE,
  LoginBody,
  OtpBody,
  ReferralSignUpBody,
  ResetPasswordBody,
  SESSION_COOKIE,
  SignUpBody,
  TicketBody,
  type SessionInfo,
} from "../../contract/session";
import { clientAddress, rateLimit, rateLimitAddress } from "../../http/rate-limit";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE, recordSignals } from "../members/block-evasion";
import { randomString } from "../../lib/crypto";
import { parseProjectCode, requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as session from "./session.service";

/** Login and sign-up also set the HttpOnly cookie so any client that signs in can render private pages. */
export async function setSessionCookies(c: Context<AppEnv>, info: SessionInfo) {
  const secure = new URL(c.req.url).protocol === "https:";
  await keepSignals(c, info, secure);
  setCookie(c, SESSION_COOKIE, `${info.memberId}.${info.token}`, {
    httpOnly: true,
    sameSite: "Lax",
    secure,
    path: "/",
    expires: new Date(info.expire),
  });
  if (info.language) setCookie(c, LANGUAGE_COOKIE, info.language, { sameSite: "Lax", secure, path: "/", maxAge: 365 * 86400 });
}

/**
 * README Decisions "Block evasion and per-item reports": the address and a first-party random device id (set here on
 * the browser's first sign-up or login) are kept only as keyed hashes (block-evasion.ts).
 */
async function keepSignals(c: Context<AppEnv>, info: SessionInfo, secure: boolean) {
  let deviceId = getCookie(c, DEVICE_COOKIE) ?? "";
  if (!/^[A-Za-z0-9]{32}$/.test(deviceId)) {
    deviceId = randomString(32);
    setCookie(c, DEVICE_COOKIE, deviceId, { httpOnly: true, sameSite: "Lax", secure, path: "/", maxAge: DEVICE_COOKIE_MAX_AGE });
  }
  // The session already exists: a failed signal write must not turn the sign-in into a 500 without its cookie.
  try {
    await recordSignals(c.env, info.projectCode, info.memberId, { address: clientAddress(c), deviceId });
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "sign-in signals not kept", error: String(error) }));
  }
}

export const sessionPublic = new Hono<AppEnv>()
  // Registered before `/core/members/:project` so the literal path wins.
  .post("/core/members/referral-signup", validate("json", ReferralSignUpBody), async (c) => {
    const body = c.req.valid("json");
    await rateLimitAddress(c, "signup");
    const info = await session.signUp(c.env, {
      projectCode: c.env.DEFAULT_PROJECT,
      email: body.username,
      password: body.password,
      referralCode: body.referralCode,
    });
    await setSessionCookies(c, info);
    return c.json(ok(info));
  })
  .post("/core/members/:project", validate("json", SignUpBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    const body = c.req.valid("json");
    await rateLimitAddress(c, "signup");
    await rateLimit(c.env.RL_SIGNUP, `signup:${projectCode}:${body.username}`);
    const info = await session.signUp(c.env, { projectCode, email: body.username, password: body.password });
    await setSessionCookies(c, info);
    return c.json(ok(info));
  })
  .post("/core/sessions/:project", validate("json", LoginBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    const body = c.req.valid("json");
    await rateLimitAddress(c, "login");
    await rateLimit(c.env.RL_LOGIN, `login:${projectCode}:${body.username}`);
    const info = await session.login(c.env, { projectCode, email: body.username, password: body.password });
    await setSessionCookies(c, info);
    return c.json(ok(info));
  })
  .post("/core/members/:project/forget/password", validate("json", ForgetPasswordBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    const { email } = c.req.valid("json");
    await rateLimitAddress(c, "reset");
    await rateLimit(c.env.RL_SENSITIVE, `reset:${projectCode}:${email}`);
    // The link is built from the configured origin, never from the request's Host header (which a caller chooses).
    await session.forgetPassword(c.env, { projectCode, email, origin: c.env.PUBLIC_ORIGIN });
    return c.json(ok({ sent: true }));
  })
  .post("/core/members/:project/reset/password", validate("json", ResetPasswordBody), async (c) => {
    const projectCode = parseProjectCode(c.req.param("project"));
    const body = c.req.valid("json");
    await rateLimitAddress(c, "reset");
    await session.resetPassword(c.env, { projectCode, token: body.token, newPassword: body.newPassword });
    return c.json(ok({ reset: true }));
  });

export const sessionPrivate = new Hono<AppEnv>()
  .post("/core/sessions/expire", async (c) => {
    await session.expireSession(c.env, c.get("member"));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json(ok({ expired: true }));
  })
  .post("/core/sessions/ticket", validate("json", TicketBody), async (c) => {
    return c.json(ok(await session.issueTicket(c.env, c.get("member"), c.req.valid("json").audience)));
  })
  .put("/core/members/password/:memberId", validate("json", ChangePasswordBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await rateLimit(c.env.RL_SENSITIVE, `password:${member.memberId}`);
    await session.changePassword(c.env, member, c.req.valid("json"));
    return c.json(ok({ changed: true }));
  })
  .get("/core/members/:memberId/referral", async (c) => c.json(ok(await session.referralInfo(c.env, requireSelf(c, c.req.param("memberId"))))))
  .post("/core/otp/:memberId", validate("json", OtpBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await rateLimit(c.env.RL_SENSITIVE, `otp:${member.memberId}`);
    const { otp } = c.req.valid("json");
    if (!otp) return c.json(ok(await session.issueOtp(c.env, member)));
    await session.verifyOtp(c.env, member, otp);
    return c.json(ok({ verified: true }));
  });
