import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../../contract/session";
import { memberFromSessionId, memberFromTokenHash, ticketClaim } from "./session.service";
import type { SessionMember } from "../../lib/session-member";
import { guardsAvailable, sessionClaims, withSessionGuard } from "./session-guard";
import { sha256Hex } from "../../lib/crypto";
import { servesTenant } from "../../db/d1-session";
import { AppError } from "../../lib/app-error";
import type { AppEnv } from "../../http/types";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Which requests may check their session inside their own first D1 batch (session-guard.ts): every read, and
 * writes whose first effect is that batch — anything they do outside D1 (a broadcast) happens after it.
 * Other writes look their session up before they run.
 */
function mayDeferCheck(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  const path = new URL(request.url).pathname;
  return request.method === "POST" && DEFERRABLE_WRITES.some((pattern) => pattern.test(path));
}
const DEFERRABLE_WRITES = [
  // Posting a chat message: one batch reads the sender and recipient and writes the message; the room hears of
  // it only from that batch's result.
  /^\/api\/v[67]\/private\/sns\/chatrooms\/[^/]+\/messages\/[^/]+$/,
];

type Credential = {
  /** Key of the per-isolate claims cache: one credential is one session. */
  key: string;
  /** The member the caller says it is, when the credential names one. */
  memberId: string;
  viaCookie: boolean;
  lookup: () => Promise<SessionMember | null>;
};

/**
 * Private routes (§7): `X-Access-Token` + `X-Member-ID` (32-char token), `Authorization: Bearer <jwt>`,
 * or the HttpOnly session cookie set at login. Cookie-authenticated writes must come from our own origin.
 * Missing credentials → 401; present but invalid or expired → 100003 so the client goes to login.
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const credential = await readCredential(c);
  const claimed = !retried.has(c.req.raw) && mayDeferCheck(c.req.raw) ? sessionClaims.get(credential.key) : undefined;
  const deferred = claimed && claimed.memberId === credential.memberId && guardsAvailable(c.env.DB) ? claimed : null;
  const member = deferred ?? (await lookUp(credential));
  // A session of a tenant whose database is not this request's (README Decisions "A tenant per database") is no
  // session here: the request named another tenant than the member's.
  if (!servesTenant(member.projectCode)) throw new AppError("sessionInvalid");
  if (credential.viaCookie && !SAFE_METHODS.has(c.req.method) && !isSameOrigin(c.req.raw)) throw new AppError("forbidden");
  c.set("member", member);
  if (!deferred) return next();
  if (await withSessionGuard(c.env.DB, deferred, next)) return;

  // The session ended, or the member changed since it was cached: whatever the handler produced is dropped and
  // the request runs again with a lookup first (which answers 100003 if the session is gone).
  sessionClaims.delete(credential.key);
  if (!retry) throw new AppError("sessionInvalid");
  // A write's body was read by its handler; Hono keeps it, so the request can be sent again.
  const body = SAFE_METHODS.has(c.req.method) ? undefined : await c.req.arrayBuffer();
  const again = new Request(c.req.raw.url, { method: c.req.method, headers: c.req.raw.headers, body });
  retried.add(again);
  c.res = await retry(again, c.env, executionContext(c));
});

/**
 * The caller's member when the request carries a live session (headers, Bearer or cookie), else null — for doors
 * outside the private API that answer members and visitors differently (/private-media). Never throws: a bad or
 * ended session is simply no member.
 */
export async function optionalMember(c: Context<AppEnv>): Promise<SessionMember | null> {
  try {
    const credential = await readCredential(c);
    const member = await credential.lookup();
    return member && member.memberId === credential.memberId && servesTenant(member.projectCode) ? member : null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** The session behind a credential, looked up now (and remembered for the isolate's later reads); 100003 if none. */
async function lookUp(credential: Credential): Promise<SessionMember> {
  const member = await credential.lookup();
  if (!member || member.memberId !== credential.memberId) {
    sessionClaims.delete(credential.key);
    throw new AppError("sessionInvalid");
  }
  sessionClaims.set(credential.key, member);
  return member;
}

async function readCredential(c: Context<AppEnv>): Promise<Credential> {
  const token = c.req.header("X-Access-Token");
  const memberId = c.req.header("X-Member-ID");
  const bearer = c.req.header("Authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];

  if (token || memberId) {
    if (!token || !memberId) throw new AppError("sessionInvalid");
    return tokenCredential(c.env, memberId, token, false);
  }
  if (bearer) {
    const claim = await ticketClaim(c.env, bearer, "api");
    if (!claim) throw new AppError("sessionInvalid");
    return { key: `sid:${claim.sessionId}`, memberId: claim.memberId, viaCookie: false, lookup: () => memberFromSessionId(c.env, claim.sessionId) };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  if (!cookie) throw new AppError("unauthorized");
  const [cookieMember, cookieToken] = cookie.split(".");
  if (!cookieMember || !cookieToken) throw new AppError("sessionInvalid");
  return tokenCredential(c.env, cookieMember, cookieToken, true);
}

async function tokenCredential(env: Env, memberId: string, token: string, viaCookie: boolean): Promise<Credential> {
  const tokenHash = await sha256Hex(token);
  return { key: `token:${tokenHash}`, memberId, viaCookie, lookup: () => memberFromTokenHash(env, memberId, tokenHash) };
}

/** A cookie write must carry our Origin (or, lacking it, a same-origin fetch-site). */
function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}

type Fetch = (request: Request, env: Env, ctx?: ExecutionContext) => Response | Promise<Response>;

/** A request run again after its cached session proved stale; it looks its session up first. */
const retried = new WeakSet<Request>();
let retry: Fetch | null = null;

/** The worker app registers itself, so a read whose member changed under it can be answered afresh. */
export function answerStaleSessionsWith(fetch: Fetch) {
  retry = fetch;
}

function executionContext(c: Context<AppEnv>): ExecutionContext | undefined {
  try {
    return c.executionCtx as unknown as ExecutionContext;
  } catch {
    return undefined;
  }
}
