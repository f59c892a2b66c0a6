import { CodeChallengeMethod, OAuth2Client, OAuth2Tokens, generateCodeVerifier, generateState } from "arctic";
import { and, eq, isNull, gt, lte, or, isNotNull } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from "jose";
import { getDb } from "../../db/client";
import { lineAccounts, lineAuthStates, members, profiles } from "../../db/schema";
import type { LineBinding } from "../../contract/line";
import type { SessionInfo } from "../../contract/session";
import { LINE_CALLBACK_PATH } from "../../contract/line";
import { AppError } from "../../lib/app-error";
import { randomString, sha256Hex, timingSafeEqualHex } from "../../lib/crypto";
import { MINUTE, iso, now } from "../../lib/time";
import type { SessionMember } from "../../lib/session-member";
import { createSession, sessionInfo, signUp } from "../session/session.service";

/**
 * LINE login, bind, unbind (§7 Session; README Decisions "LINE login"). OpenID Connect authorization code flow with
 * PKCE (S256), state and nonce; arctic builds the authorization address and the verifier, jose verifies the ID token.
 */

/** A started sign-in lives ten minutes; so does a verified LINE user waiting for the adult confirmation. */
export const LINE_STATE_TTL = 10 * MINUTE;
/** HttpOnly cookies that tie a sign-in to the browser that started it (path /api: only the API reads them). */
export const LINE_STATE_COOKIE = "velvet_line_state";
export const LINE_SIGNUP_COOKIE = "velvet_line_signup";
/** LINE's own issuer; `LINE_ISSUER` points tests (and a staging fake) elsewhere. */
const DEFAULT_ISSUER = "https://access.line.me";
/** Only LINE's user id is asked for: no name, picture or email of the LINE profile reaches Velvet. */
const SCOPES = ["openid"];

type LineEnv = Env & { LINE_CHANNEL_ID?: string; LINE_CHANNEL_SECRET?: string; LINE_ISSUER?: string };
export type LineConfig = { channelId: string; channelSecret: string; issuer: string };
type Discovery = { issuer: string; authorizationEndpoint: string; tokenEndpoint: string; jwksUri: string };

/** The channel, or null when LINE is not configured (buttons hidden, flows answer `lineNotConfigured`). */
export function lineConfig(env: Env): LineConfig | null {
  const vars = env as LineEnv;
  const channelId = vars.LINE_CHANNEL_ID?.trim() ?? "";
  const channelSecret = vars.LINE_CHANNEL_SECRET?.trim() ?? "";
  const issuer = (vars.LINE_ISSUER?.trim() || DEFAULT_ISSUER).replace(/\/+$/, "");
  if (!channelId || !channelSecret || !isSafeEndpoint(issuer)) return null;
  return { channelId, channelSecret, issuer };
}

export function requireLineConfig(env: Env): LineConfig {
  const config = lineConfig(env);
  if (!config) throw new AppError("lineNotConfigured");
  return config;
}

/** https only, except a loopback fake in local tests. */
function isSafeEndpoint(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname));
  } catch {
    return false;
  }
}

const discoveries = new Map<string, { value: Discovery; until: number }>();
const keySets = new Map<string, JWTVerifyGetKey>();

/** The issuer's OpenID configuration, kept an hour per isolate. Its issuer must be the one configured. */
async function discover(config: LineConfig): Promise<Discovery> {
  const kept = discoveries.get(config.issuer);
  if (kept && kept.until > now()) return kept.value;
  let body: Record<string, unknown>;
  try {
    const response = await fetch(`${config.issuer}/.well-known/openid-configuration`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    body = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "LINE discovery failed", error: String(error) }));
    throw new AppError("lineSignInFailed");
  }
  const value: Discovery = {
    issuer: String(body.issuer ?? ""),
    authorizationEndpoint: String(body.authorization_endpoint ?? ""),
    tokenEndpoint: String(body.token_endpoint ?? ""),
    jwksUri: String(body.jwks_uri ?? ""),
  };
  const endpoints = [value.authorizationEndpoint, value.tokenEndpoint, value.jwksUri];
  if (value.issuer.replace(/\/+$/, "") !== config.issuer || !endpoints.every(isSafeEndpoint)) throw new AppError("lineSignInFailed");
  discoveries.set(config.issuer, { value, until: now() + 60 * MINUTE });
  return value;
}

/**
 * The redirect URL must be this tenant's callback page on our own origin (the configured one, or the one the
 * request came to), so a code is never sent elsewhere; it is kept with the state and must match on return.
 */
export function checkRedirectUrl(redirectUrl: string, projectCode: string, origins: string[]): string {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    throw new AppError("badRequest");
  }
  const expectedPath = `/${projectCode.toLowerCase()}/${LINE_CALLBACK_PATH}`;
  if (!origins.includes(url.origin) || url.pathname !== expectedPath || url.search || url.hash || url.username || url.password) {
    throw new AppError("badRequest");
  }
  return url.toString();
}

/** Starts a sign-in: a state, nonce and PKCE verifier kept server-side (hashed state), and LINE's address. */
export async function startAuthorization(
  env: Env,
  input: { projectCode: string; purpose: "login" | "bind"; memberId: string | null; redirectUrl: string },
): Promise<{ authorizeUrl: string; state: string }> {
  const config = requireLineConfig(env);
  const discovery = await discover(config);
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const nonce = generateState();
  await getDb(env)
    .insert(lineAuthStates)
    .values({
      stateHash: await sha256Hex(state),
      projectCode: input.projectCode,
      purpose: input.purpose,
      memberId: input.memberId,
      nonce,
      codeVerifier,
      redirectUrl: input.redirectUrl,
      expiresAt: now() + LINE_STATE_TTL,
    });
  const client = new OAuth2Client(config.channelId, null, input.redirectUrl);
  const url = client.createAuthorizationURLWithPKCE(discovery.authorizationEndpoint, state, CodeChallengeMethod.S256, codeVerifier, SCOPES);
  url.searchParams.set("nonce", nonce);
  return { authorizeUrl: url.toString(), state };
}

/**
 * Finishes a sign-in and answers the hash of LINE's user id. The state must be the one this browser's cookie holds
 * and is spent by one conditional update (unused, unexpired, same tenant, purpose and member), so a replay, a
 * state from another browser or tenant, or one started for someone else is refused before LINE is asked. Then the
 * code is exchanged with the PKCE verifier and the ID token verified: signature (the issuer's JWKS for ES256; the
 * channel secret for HS256, which LINE uses for web login), issuer, audience = channel id, expiry, nonce.
 */
export async function completeAuthorization(
  env: Env,
  input: { projectCode: string; purpose: "login" | "bind"; memberId: string | null; state: string; cookieState: string | undefined; code: string; redirectUrl: string },
): Promise<string> {
  const config = requireLineConfig(env);
  const stateHash = await sha256Hex(input.state);
  if (!input.cookieState || !timingSafeEqualHex(await sha256Hex(input.cookieState), stateHash)) throw new AppError("lineStateInvalid");
  const at = now();
  const spent = await getDb(env)
    .update(lineAuthStates)
    .set({ usedAt: at })
    .where(
      and(
        eq(lineAuthStates.stateHash, stateHash),
        isNull(lineAuthStates.usedAt),
        gt(lineAuthStates.expiresAt, at),
        eq(lineAuthStates.projectCode, input.projectCode),
        eq(lineAuthStates.purpose, input.purpose),
        input.memberId === null ? isNull(lineAuthStates.memberId) : eq(lineAuthStates.memberId, input.memberId),
      ),
    )
    .returning({ nonce: lineAuthStates.nonce, codeVerifier: lineAuthStates.codeVerifier, redirectUrl: lineAuthStates.redirectUrl })
    .get();
  if (!spent || spent.redirectUrl !== input.redirectUrl) throw new AppError("lineStateInvalid");

  const discovery = await discover(config);
  const idToken = await exchangeCode(config, discovery, input.code, spent.codeVerifier, spent.redirectUrl);
  const sub = await verifyIdToken(config, discovery, idToken, spent.nonce);
  return sha256Hex(sub);
}

/**
 * LINE's token request (its reference: client id and secret in the form body, with the PKCE verifier). arctic's
 * generic client sends the secret as HTTP Basic, which LINE's token endpoint does not document, and its LINE provider
 * has LINE's addresses built in (tests need the fake's), so the request is made here and read by arctic's token type.
 */
async function exchangeCode(config: LineConfig, discovery: Discovery, code: string, codeVerifier: string, redirectUrl: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUrl,
    client_id: config.channelId,
    client_secret: config.channelSecret,
    code_verifier: codeVerifier,
  });
  try {
    const response = await fetch(discovery.tokenEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body,
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`token endpoint answered ${response.status}`);
    }
    return new OAuth2Tokens((await response.json()) as object).idToken();
  } catch (error) {
    // The code, verifier and tokens are never logged.
    console.warn(JSON.stringify({ level: "warn", message: "LINE code exchange failed", error: String(error).slice(0, 200) }));
    throw new AppError("lineSignInFailed");
  }
}

async function verifyIdToken(config: LineConfig, discovery: Discovery, idToken: string, nonce: string): Promise<string> {
  try {
    const { alg } = decodeProtectedHeader(idToken);
    const options = { issuer: discovery.issuer, audience: config.channelId, requiredClaims: ["exp", "iat", "sub", "nonce"], clockTolerance: 30 };
    const { payload } =
      alg === "HS256"
        ? await jwtVerify(idToken, new TextEncoder().encode(config.channelSecret), { ...options, algorithms: ["HS256"] })
        : await jwtVerify(idToken, keySet(discovery.jwksUri), { ...options, algorithms: ["ES256"] });
    if (typeof payload.sub !== "string" || !payload.sub || typeof payload.nonce !== "string" || !timingSafeEqualHex(await sha256Hex(payload.nonce), await sha256Hex(nonce))) {
      throw new Error("nonce or subject mismatch");
    }
    return payload.sub;
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "LINE ID token refused", error: String(error).slice(0, 200) }));
    throw new AppError("lineSignInFailed");
  }
}

function keySet(jwksUri: string): JWTVerifyGetKey {
  let set = keySets.get(jwksUri);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, set);
  }
  return set;
}

/** The live member of this tenant bound to the LINE account, or null. */
async function boundMember(env: Env, projectCode: string, lineSubHash: string) {
  return getDb(env)
    .select({ id: members.id, status: members.status })
    .from(lineAccounts)
    .innerJoin(members, eq(members.id, lineAccounts.memberId))
    .where(and(eq(lineAccounts.projectCode, projectCode), eq(lineAccounts.lineSubHash, lineSubHash), eq(members.projectCode, projectCode)))
    .get();
}

/**
 * LINE login: a bound member is signed in like a password login (the same session and cookies); a LINE user new to
 * this tenant gets a one-use registration ticket instead (no account yet: the adult confirmation comes first).
 */
export async function loginWithLine(env: Env, projectCode: string, lineSubHash: string): Promise<{ session: SessionInfo } | { ticket: string }> {
  const member = await boundMember(env, projectCode, lineSubHash);
  if (member && member.status !== "deleted") {
    const at = now();
    const db = getDb(env);
    // As a password login (session.service.ts `login`).
    await db.batch([
      db.update(members).set({ lastLoginAt: at }).where(eq(members.id, member.id)),
      db.update(profiles).set({ lastAccess: at }).where(eq(profiles.memberId, member.id)),
    ]);
    const session = await createSession(env, { id: member.id, projectCode });
    return { session: await sessionInfo(env, member.id, session) };
  }
  const ticket = randomString(40);
  await getDb(env)
    .insert(lineAuthStates)
    .values({ stateHash: await sha256Hex(ticket), projectCode, purpose: "signup", lineSubHash, expiresAt: now() + LINE_STATE_TTL });
  return { ticket };
}

/** The adult-confirmed registration of a verified LINE user: spends the ticket, then creates and binds the member. */
export async function signUpWithLine(env: Env, projectCode: string, ticket: string | undefined) {
  requireLineConfig(env);
  if (!ticket) throw new AppError("lineStateInvalid");
  const at = now();
  const spent = await getDb(env)
    .update(lineAuthStates)
    .set({ usedAt: at })
    .where(
      and(
        eq(lineAuthStates.stateHash, await sha256Hex(ticket)),
        isNull(lineAuthStates.usedAt),
        gt(lineAuthStates.expiresAt, at),
        eq(lineAuthStates.projectCode, projectCode),
        eq(lineAuthStates.purpose, "signup"),
      ),
    )
    .returning({ lineSubHash: lineAuthStates.lineSubHash })
    .get();
  if (!spent?.lineSubHash) throw new AppError("lineStateInvalid");
  // No address of the member's is known: a private placeholder nobody can receive mail at (README Decisions "LINE login").
  return signUp(env, { projectCode, email: `line.${randomString(24).toLowerCase()}@line.invalid`, password: null, lineSubHash: spent.lineSubHash });
}

/** Binds the verified LINE account to the caller: one LINE account per member, one member per LINE account and tenant. */
export async function bindLine(env: Env, member: SessionMember, lineSubHash: string) {
  const db = getDb(env);
  const [holder, own] = await db.batch([
    db.select({ memberId: lineAccounts.memberId }).from(lineAccounts).where(and(eq(lineAccounts.projectCode, member.projectCode), eq(lineAccounts.lineSubHash, lineSubHash))),
    db.select({ lineSubHash: lineAccounts.lineSubHash }).from(lineAccounts).where(eq(lineAccounts.memberId, member.memberId)),
  ]);
  if (holder[0] && holder[0].memberId !== member.memberId) throw new AppError("lineAlreadyBound");
  if (own[0]) {
    if (own[0].lineSubHash === lineSubHash) return;
    throw new AppError("lineMemberHasBinding");
  }
  try {
    await db.insert(lineAccounts).values({ memberId: member.memberId, projectCode: member.projectCode, lineSubHash, createdAt: now() });
  } catch (error) {
    // A racing bind of the same LINE account or member lost to the unique keys.
    if (/UNIQUE constraint failed: line_accounts\.(project_code|line_sub_hash)/.test(String(error))) throw new AppError("lineAlreadyBound");
    if (/UNIQUE constraint failed: line_accounts\.member_id/.test(String(error))) throw new AppError("lineMemberHasBinding");
    throw error;
  }
}

/** Unbinds, only while the account keeps a password (else the member could never log in again). */
export async function unbindLine(env: Env, member: SessionMember) {
  const db = getDb(env);
  const row = await db.select({ passwordHash: members.passwordHash }).from(members).where(eq(members.id, member.memberId)).get();
  if (!row) throw new AppError("notFound");
  const bound = await db
    .select({ memberId: lineAccounts.memberId })
    .from(lineAccounts)
    .where(and(eq(lineAccounts.memberId, member.memberId), eq(lineAccounts.projectCode, member.projectCode)))
    .get();
  if (!bound) throw new AppError("lineNotBound");
  if (!hasPassword(row.passwordHash)) throw new AppError("lineUnbindNeedsPassword");
  await db.delete(lineAccounts).where(and(eq(lineAccounts.memberId, member.memberId), eq(lineAccounts.projectCode, member.projectCode)));
}

/** An account made through LINE keeps an empty hash (session.service.ts `signUp`). */
const hasPassword = (passwordHash: string) => passwordHash !== "";

export async function lineBinding(env: Env, member: SessionMember): Promise<LineBinding> {
  const db = getDb(env);
  const [account, bound] = await db.batch([
    db.select({ passwordHash: members.passwordHash }).from(members).where(eq(members.id, member.memberId)),
    db
      .select({ createdAt: lineAccounts.createdAt })
      .from(lineAccounts)
      .where(and(eq(lineAccounts.memberId, member.memberId), eq(lineAccounts.projectCode, member.projectCode))),
  ]);
  return {
    enabled: lineConfig(env) !== null,
    bound: Boolean(bound[0]),
    boundAt: iso(bound[0]?.createdAt),
    hasPassword: hasPassword(account[0]?.passwordHash ?? ""),
  };
}

/** Daily housekeeping: spent and expired sign-in states say nothing anyone needs. */
export async function purgeLineStates(env: Env, at: number) {
  await getDb(env)
    .delete(lineAuthStates)
    .where(or(isNotNull(lineAuthStates.usedAt), lte(lineAuthStates.expiresAt, at)));
}
