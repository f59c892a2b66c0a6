import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import { getDb } from "../../db/client";
import { lineAccounts, members, otpCodes, passwordResets, personalChatrooms, profiles, sessions } from "../../db/schema";
import { personalRoomRow } from "../members/personal-room";
import type { ReferralInfo, SessionInfo, SessionTicket } from "../../contract/session";
import { AppError } from "../../lib/app-error";
import type { SessionMember } from "../../lib/session-member";
import { DUMMY_PASSWORD_HASH, hashPassword, randomString, sha256Hex, timingSafeEqualHex, verifyPassword } from "../../lib/crypto";
import { newMemberId, newMemberNo, newReferralCode, newSessionId, newSessionToken } from "../../lib/ids";
import { DAY, MINUTE, now } from "../../lib/time";
import { sendMail } from "../notifications/mail";
import { endMemberSockets } from "../../lib/end-sessions";
import { removeSessionSubscriptions } from "../notifications/web-push";

/** Who is calling a private route. Set on the context by `requireSession`. */
export const SESSION_TTL = 30 * DAY;
const RESET_TTL = 60 * MINUTE;
const OTP_TTL = 5 * MINUTE;
const OTP_MAX_ATTEMPTS = 5;

export async function createSession(env: Env, member: { id: string; projectCode: string }): Promise<{ token: string; sessionId: string; expiresAt: number }> {
  const token = newSessionToken();
  const sessionId = newSessionId();
  const createdAt = now();
  const expiresAt = createdAt + SESSION_TTL;
  await getDb(env)
    .insert(sessions)
    .values({ id: sessionId, memberId: member.id, projectCode: member.projectCode, tokenHash: await sha256Hex(token), createdAt, expiresAt });
  return { token, sessionId, expiresAt };
}

export async function sessionInfo(env: Env, memberId: string, session: { token: string; sessionId: string; expiresAt: number }): Promise<SessionInfo> {
  const row = await getDb(env)
    .select({
      memberNo: profiles.simpleCode,
      projectCode: profiles.projectCode,
      avator: profiles.avator,
      nickname: profiles.nickname,
      language: profiles.language,
      kycStatus: profiles.kycStatus,
      safeMode: profiles.safeMode,
    })
    .from(profiles)
    .where(eq(profiles.memberId, memberId))
    .get();
  if (!row) throw new AppError("sessionInvalid");
  return {
    token: session.token,
    memberId,
    memberNo: row.memberNo,
    sessionId: session.sessionId,
    avator: row.avator,
    expire: new Date(session.expiresAt).toISOString(),
    nickname: row.nickname,
    projectCode: row.projectCode,
    language: row.language,
    kycStatus: row.kycStatus,
    safeMode: row.safeMode,
  };
}

/**
 * Creates the member and an empty profile in one atomic batch, then signs them in. A LINE sign-up (README Decisions
 * "LINE login") has no password (`null`: an empty hash no password verifies against) and binds `lineSubHash` in the
 * same batch.
 */
export async function signUp(env: Env, input: { projectCode: string; email: string; password: string | null; referralCode?: string; lineSubHash?: string }) {
  const db = getDb(env);
  const referrer = input.referralCode
    ? await db.select({ id: members.id, projectCode: members.projectCode }).from(members).where(eq(members.referralCode, input.referralCode)).get()
    : undefined;
  if (input.referralCode && !referrer) throw new AppError("referralUnknown");
  const projectCode = referrer?.projectCode ?? input.projectCode;

  const existing = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.projectCode, projectCode), eq(members.email, input.email)))
    .get();
  if (existing) throw new AppError("userExists");

  const passwordHash = input.password === null ? "" : await hashPassword(input.password);
  const emailHash = await sha256Hex(input.email);
  const id = newMemberId();
  const at = now();
  // A clash on the random member number or referral code is retried with fresh values.
  for (let attempt = 0; attempt < 4; attempt++) {
    const simpleCode = newMemberNo();
    try {
      await db.batch([
        db.insert(members).values({
          id,
          projectCode,
          email: input.email,
          passwordHash,
          simpleCode,
          referralCode: newReferralCode(),
          referredBy: referrer?.id ?? null,
          createdAt: at,
          lastLoginAt: at,
        }),
        db.insert(profiles).values({ memberId: id, projectCode, simpleCode, emailHash, createdAt: at, updatedAt: at, lastAccess: at }),
        // §2 personal chatroom → owner, for photo comment counts (SQL has no md5; photo-comment-counts.ts).
        db.insert(personalChatrooms).values(personalRoomRow(projectCode, id, simpleCode)),
        ...(input.lineSubHash ? [db.insert(lineAccounts).values({ memberId: id, projectCode, lineSubHash: input.lineSubHash, createdAt: at })] : []),
        ...(referrer
          ? [db.update(members).set({ referralCount: sql`${members.referralCount} + 1` }).where(eq(members.id, referrer.id))]
          : []),
      ]);
      const session = await createSession(env, { id, projectCode });
      return sessionInfo(env, id, session);
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      if (/UNIQUE constraint failed: members\.project_code, members\.email/.test(message)) throw new AppError("userExists");
      if (/UNIQUE constraint failed: line_accounts\./.test(message)) throw new AppError("lineAlreadyBound");
      if (!/UNIQUE constraint failed/.test(message)) throw error;
    }
  }
  throw new AppError("conflict");
}

/** Same answer and the same work for an unknown email as for a wrong password. */
export async function login(env: Env, input: { projectCode: string; email: string; password: string }) {
  const db = getDb(env);
  const member = await db
    .select({ id: members.id, passwordHash: members.passwordHash, status: members.status })
    .from(members)
    .where(and(eq(members.projectCode, input.projectCode), eq(members.email, input.email)))
    .get();
  const valid = await verifyPassword(input.password, member?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!member || !valid || member.status === "deleted") throw new AppError("loginFailed");
  const at = now();
  await db.batch([
    db.update(members).set({ lastLoginAt: at }).where(eq(members.id, member.id)),
    db.update(profiles).set({ lastAccess: at }).where(eq(profiles.memberId, member.id)),
  ]);
  const session = await createSession(env, { id: member.id, projectCode: input.projectCode });
  return sessionInfo(env, member.id, session);
}

/** Resolves a token to its live session, or null. One indexed query. */
export async function memberFromToken(env: Env, memberId: string, token: string): Promise<SessionMember | null> {
  return memberFromTokenHash(env, memberId, await sha256Hex(token));
}

export async function memberFromTokenHash(env: Env, memberId: string, tokenHash: string): Promise<SessionMember | null> {
  const row = await getDb(env)
    .select({
      memberId: sessions.memberId,
      projectCode: sessions.projectCode,
      sessionId: sessions.id,
      memberNo: members.simpleCode,
      status: members.status,
      kycStatus: profiles.kycStatus,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(profiles, eq(profiles.memberId, sessions.memberId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.endedAt), gt(sessions.expiresAt, now())))
    .get();
  if (!row || row.memberId !== memberId || row.status === "deleted") return null;
  return row;
}

/** The live session by id, with its expiry (a socket's lifetime is bounded by it). */
export async function memberFromSessionId(env: Env, sessionId: string): Promise<(SessionMember & { expiresAt: number }) | null> {
  const row = await getDb(env)
    .select({
      memberId: sessions.memberId,
      projectCode: sessions.projectCode,
      sessionId: sessions.id,
      memberNo: members.simpleCode,
      status: members.status,
      kycStatus: profiles.kycStatus,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(profiles, eq(profiles.memberId, sessions.memberId))
    .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt), gt(sessions.expiresAt, now())))
    .get();
  if (!row || row.status === "deleted") return null;
  return row;
}

/**
 * May this session hold sockets now? Live, unexpired, and its member active (a suspended member's streams stop).
 * One indexed read; every message a socket sends is checked with it (README Decisions "Sockets end with their session").
 */
export async function sessionHoldsSockets(env: Env, sessionId: string, memberId: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ status: members.status })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId), isNull(sessions.endedAt), gt(sessions.expiresAt, now())))
    .get();
  return row?.status === "active";
}

/** Logout (§7 expire): the session ends, and with it every socket it opened. */
export async function expireSession(env: Env, member: Pick<SessionMember, "sessionId" | "memberId" | "projectCode">) {
  await getDb(env).update(sessions).set({ endedAt: now() }).where(eq(sessions.id, member.sessionId));
  // Logout of a device ends its web push as well (README Decisions "Push that reaches a closed app").
  await removeSessionSubscriptions(env, member.sessionId);
  await endMemberSockets(env, member.projectCode, member.memberId, { sessionId: member.sessionId });
}

/** Always succeeds from the caller's view; mails a one-time link only when the account exists. */
export async function forgetPassword(env: Env, input: { projectCode: string; email: string; origin: string }) {
  const db = getDb(env);
  const member = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.projectCode, input.projectCode), eq(members.email, input.email), ne(members.status, "deleted")))
    .get();
  if (!member) return;
  const token = randomString(40);
  const at = now();
  // A newer link outdates every earlier one.
  await db.batch([
    outdateResets(env, member.id, at),
    db.insert(passwordResets).values({ tokenHash: await sha256Hex(token), memberId: member.id, projectCode: input.projectCode, expiresAt: at + RESET_TTL }),
  ]);
  const link = `${input.origin}/${input.projectCode.toLowerCase()}/reset-password?token=${token}`;
  await sendMail(env, {
    projectCode: input.projectCode,
    to: input.email,
    subject: "Reset your Velvet password",
    body: `Someone asked to reset the password of this account. Open this link within an hour to choose a new one:\n\n${link}\n\nIf it was not you, ignore this message.`,
  });
}

/**
 * Consumes a reset link once: one conditional update both checks the link (unused, unexpired, this tenant) and
 * spends it, so two requests racing with the same link cannot both pass. Every session of the member and every
 * other outstanding link end with it.
 */
export async function resetPassword(env: Env, input: { projectCode: string; token: string; newPassword: string }) {
  const db = getDb(env);
  const tokenHash = await sha256Hex(input.token);
  const passwordHash = await hashPassword(input.newPassword);
  const at = now();
  const spent = await db
    .update(passwordResets)
    .set({ usedAt: at })
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, at), eq(passwordResets.projectCode, input.projectCode)))
    .returning({ memberId: passwordResets.memberId })
    .get();
  if (!spent) throw new AppError("resetTokenInvalid");
  await db.batch([
    db.update(members).set({ passwordHash }).where(eq(members.id, spent.memberId)),
    db.update(sessions).set({ endedAt: at }).where(and(eq(sessions.memberId, spent.memberId), isNull(sessions.endedAt))),
    outdateResets(env, spent.memberId, at),
  ]);
  await endMemberSockets(env, input.projectCode, spent.memberId);
}

/** Spends every outstanding reset link of a member: a password change or a newer link outdates them. */
const outdateResets = (env: Env, memberId: string, at: number) =>
  getDb(env).update(passwordResets).set({ usedAt: at }).where(and(eq(passwordResets.memberId, memberId), isNull(passwordResets.usedAt)));

/** Changes the password; every other session of the member ends. */
export async function changePassword(env: Env, member: SessionMember, input: { oldPassword: string; newPassword: string }) {
  const db = getDb(env);
  const row = await db.select({ passwordHash: members.passwordHash }).from(members).where(eq(members.id, member.memberId)).get();
  if (!row || !(await verifyPassword(input.oldPassword, row.passwordHash))) throw new AppError("wrongOldPassword");
  const at = now();
  await db.batch([
    db.update(members).set({ passwordHash: await hashPassword(input.newPassword) }).where(eq(members.id, member.memberId)),
    db
      .update(sessions)
      .set({ endedAt: at })
      .where(and(eq(sessions.memberId, member.memberId), isNull(sessions.endedAt), ne(sessions.id, member.sessionId))),
    outdateResets(env, member.memberId, at),
  ]);
  await endMemberSockets(env, member.projectCode, member.memberId, { exceptSessionId: member.sessionId });
}

/** The caller's own referral code (only ever read by its owner: the link they hand out). */
export async function referralInfo(env: Env, member: SessionMember): Promise<ReferralInfo> {
  const row = await getDb(env)
    .select({ referralCode: members.referralCode, referralCount: members.referralCount })
    .from(members)
    .where(and(eq(members.id, member.memberId), eq(members.projectCode, member.projectCode)))
    .get();
  if (!row) throw new AppError("notFound");
  return row;
}

/** Issues a six-digit code by mail. */
export async function issueOtp(env: Env, member: SessionMember) {
  const db = getDb(env);
  const code = randomString(6, "0123456789");
  const codeHash = await sha256Hex(`${member.memberId}:${code}`);
  const expiresAt = now() + OTP_TTL;
  await db
    .insert(otpCodes)
    .values({ memberId: member.memberId, codeHash, expiresAt, attempts: 0 })
    .onConflictDoUpdate({ target: otpCodes.memberId, set: { codeHash, expiresAt, attempts: 0, spentFor: null } });
  const email = await db.select({ email: members.email }).from(members).where(eq(members.id, member.memberId)).get();
  if (email) {
    await sendMail(env, {
      projectCode: member.projectCode,
      to: email.email,
      subject: "Your Velvet confirmation code",
      body: `Your confirmation code is ${code}. It expires in five minutes.`,
    });
  }
  return { expire: new Date(expiresAt).toISOString() };
}

/**
 * Verifies a code and spends it for `purpose`. One conditional update both checks the budget (live, unspent or
 * spent for this same purpose, fewer than OTP_MAX_ATTEMPTS attempts) and counts this attempt, so parallel guesses
 * cannot all pass the check before any of them counts. The right code is then spent by one conditional update:
 * twin requests of one transfer (same idempotency key) pass together, any other use is refused. A wrong or spent
 * code is an error of its own: the session stays valid (100003 would send the member to log in).
 */
export async function verifyOtp(env: Env, member: SessionMember, code: string, purpose = `verify:${randomString(16)}`) {
  const db = getDb(env);
  const usable = and(eq(otpCodes.memberId, member.memberId), sql`(${otpCodes.spentFor} is null or ${otpCodes.spentFor} = ${purpose})`);
  const counted = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(and(usable, gt(otpCodes.expiresAt, now()), sql`${otpCodes.attempts} < ${OTP_MAX_ATTEMPTS}`))
    .returning({ codeHash: otpCodes.codeHash })
    .get();
  if (!counted) throw new AppError("otpExpired");
  const candidate = await sha256Hex(`${member.memberId}:${code}`);
  if (!timingSafeEqualHex(candidate, counted.codeHash)) throw new AppError("otpWrong");
  const spent = await db
    .update(otpCodes)
    .set({ spentFor: purpose })
    .where(and(usable, eq(otpCodes.codeHash, counted.codeHash)))
    .returning({ memberId: otpCodes.memberId })
    .get();
  if (!spent) throw new AppError("otpExpired");
}

const jwtKey = (env: Env) => new TextEncoder().encode(env.JWT_SECRET);

/** Short-lived signed ticket: `socket` opens a room connection, `api` is accepted as Bearer. */
export async function issueTicket(env: Env, member: SessionMember, audience: "socket" | "api"): Promise<SessionTicket> {
  const ttlSeconds = audience === "socket" ? 60 : 15 * 60;
  const ticket = await new SignJWT({ sid: member.sessionId, prj: member.projectCode, no: member.memberNo })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(member.memberId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(jwtKey(env));
  return { ticket, expire: new Date(now() + ttlSeconds * 1000).toISOString() };
}

/** Verifies a ticket and that its session is still live (so expire and password change end it at once). */
export async function memberFromTicket(env: Env, ticket: string, audience: "socket" | "api"): Promise<(SessionMember & { expiresAt: number }) | null> {
  const claim = await ticketClaim(env, ticket, audience);
  if (!claim) return null;
  const member = await memberFromSessionId(env, claim.sessionId);
  return member && member.memberId === claim.memberId ? member : null;
}

/** Who a ticket says it is, if its signature, audience and expiry hold (the session itself is not checked here). */
export async function ticketClaim(env: Env, ticket: string, audience: "socket" | "api"): Promise<{ sessionId: string; memberId: string } | null> {
  try {
    const { payload } = await jwtVerify(ticket, jwtKey(env), { audience, algorithms: ["HS256"] });
    if (typeof payload.sid !== "string" || typeof payload.sub !== "string") return null;
    return { sessionId: payload.sid, memberId: payload.sub };
  } catch {
    return null;
  }
}
