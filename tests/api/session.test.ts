import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyOtp } from "../../worker/features/session/session.service";
import type { SessionMember } from "../../worker/lib/session-member";
import type { AppError } from "../../worker/lib/app-error";
import { call, expectFailure, expectOk, fetchWorker, login, signUp, uniqueEmail } from "../support/client";

describe("envelope and routing", () => {
  it("answers an unknown API path with 404 in the envelope, on v6 and v7", async () => {
    for (const version of [6, 7] as const) {
      const reply = await call("GET", "/public/nope", { version });
      expectFailure(reply, 404, "404000");
      expect(reply.body.requestId).toBeTruthy();
    }
    expectFailure(await call("GET", "/nothing-here"), 404);
  });

  it("answers malformed JSON with 400 in the envelope", async () => {
    const reply = await call("POST", "/public/core/sessions/SMP", { body: "{not json" });
    expectFailure(reply, 400, "400002");
  });

  it("rejects a project code that is not three letters", async () => {
    for (const code of ["SM", "SMPP", "12A"]) {
      expectFailure(await call("POST", `/public/core/sessions/${code}`, { body: { username: "a@b.co", password: "x" } }), 400);
    }
  });

  it("sends secure headers on API responses and a request id", async () => {
    const reply = await call("GET", "/public/nope");
    expect(reply.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(reply.headers.get("Strict-Transport-Security")).toContain("max-age=");
    expect(reply.headers.get("X-Request-ID")).toBeTruthy();
  });

  it("serves the same handlers under v6 and v7", async () => {
    const member = await signUp();
    const v6 = await call("POST", "/public/core/sessions/SMP", { body: { username: member.email, password: member.password }, version: 6 });
    expect(expectOk(v6).memberId).toBe(member.memberId);
  });
});

describe("sign-up", () => {
  it("creates a member and returns the §3 session keys", async () => {
    const member = await signUp("smp");
    expect(member.token).toHaveLength(32);
    expect(member.projectCode).toBe("SMP");
    expect(member.memberNo).toMatch(/^\d{8}$/);
    for (const key of ["memberId", "sessionId", "expire", "nickname", "avator"]) expect(member).toHaveProperty(key);
    const row = await env.DB.prepare("select token_hash from sessions where id = ?").bind(member.sessionId).first<{ token_hash: string }>();
    expect(row?.token_hash).toHaveLength(64);
    expect(row?.token_hash).not.toContain(member.token);
  });

  it("refuses the same email twice in one project with 409 'User has already existed'", async () => {
    const email = uniqueEmail();
    await signUp("SMP", { email });
    const again = await call("POST", "/public/core/members/SMP", { body: { username: email.toUpperCase(), password: "another password", adult: true } });
    expect(expectFailure(again, 409, "409001").returnMessage).toBe("User has already existed");
  });

  it("allows the same email in another project", async () => {
    const email = uniqueEmail();
    const a = await signUp("SMP", { email });
    const b = await signUp("ABC", { email });
    expect(b.projectCode).toBe("ABC");
    expect(b.memberId).not.toBe(a.memberId);
  });

  it("validates input and changes nothing", async () => {
    const before = await env.DB.prepare("select count(*) as n from members").first<{ n: number }>();
    for (const body of [{}, { username: "not-an-email", password: "long enough" }, { username: uniqueEmail(), password: "short" }, { username: uniqueEmail(), password: "long enough", adult: false }, { username: uniqueEmail(), password: "long enough" }]) {
      const reply = await call("POST", "/public/core/members/SMP", { body });
      expectFailure(reply, 400, "400000");
      expect(Array.isArray(reply.body.issues)).toBe(true);
    }
    const after = await env.DB.prepare("select count(*) as n from members").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("credits the referrer on referral sign-up and joins the referrer's project", async () => {
    const referrer = await signUp("ABC");
    const { referral_code } = (await env.DB.prepare("select referral_code from members where id = ?").bind(referrer.memberId).first<{ referral_code: string }>())!;
    const reply = await call("POST", "/public/core/members/referral-signup", {
      body: { username: uniqueEmail(), password: "correct horse", referralCode: referral_code, adult: true },
    });
    const info = expectOk(reply);
    expect(info.projectCode).toBe("ABC");
    const row = await env.DB.prepare("select referral_count from members where id = ?").bind(referrer.memberId).first<{ referral_count: number }>();
    expect(row?.referral_count).toBe(1);
    const referred = await env.DB.prepare("select referred_by from members where id = ?").bind(info.memberId).first<{ referred_by: string }>();
    expect(referred?.referred_by).toBe(referrer.memberId);
    expectFailure(await call("POST", "/public/core/members/referral-signup", { body: { username: uniqueEmail(), password: "correct horse", referralCode: "NOPE1234", adult: true } }), 404);
    expectFailure(await call("POST", "/public/core/members/referral-signup", { body: { username: uniqueEmail(), password: "correct horse", referralCode: referral_code } }), 400);
  });
});

describe("login and sessions", () => {
  it("logs in with the right password and sets the HttpOnly cookie", async () => {
    const member = await signUp();
    const reply = await login("SMP", member.email, member.password);
    const info = expectOk(reply);
    expect(info.memberId).toBe(member.memberId);
    expect(info.token).toHaveLength(32);
    const cookie = reply.headers.get("Set-Cookie") ?? "";
    expect(cookie).toContain("velvet_session=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const member = await signUp();
    const wrong = expectFailure(await login("SMP", member.email, "wrong password"), 401, "401001");
    const unknown = expectFailure(await login("SMP", uniqueEmail(), "wrong password"), 401, "401001");
    expect(wrong.returnMessage).toBe(unknown.returnMessage);
  });

  it("refuses a session of project SMP on project ABC", async () => {
    const member = await signUp("SMP");
    expectFailure(await login("ABC", member.email, member.password), 401);
    const reply = await call("PUT", `/private/core/members/password/${member.memberId}`, {
      as: member,
      body: { oldPassword: member.password, newPassword: "a new password" },
    });
    expectOk(reply);
  });

  it("requires a session on private routes: none → 401, bad → 100003", async () => {
    expectFailure(await call("POST", "/private/core/sessions/expire"), 401, "401000");
    const member = await signUp();
    const bad = await call("POST", "/private/core/sessions/expire", { headers: { "X-Access-Token": "x".repeat(32), "X-Member-ID": member.memberId } });
    expectFailure(bad, 401, "100003");
    const mismatched = await call("POST", "/private/core/sessions/expire", { headers: { "X-Access-Token": member.token, "X-Member-ID": "mSomebodyElse" } });
    expectFailure(mismatched, 401, "100003");
  });

  it("ends the session at once on expire", async () => {
    const member = await signUp();
    expectOk(await call("POST", "/private/core/sessions/expire", { as: member }));
    expectFailure(await call("POST", `/private/core/otp/${member.memberId}`, { as: member, body: {} }), 401, "100003");
  });

  it("accepts a signed Bearer ticket and stops accepting it once the session ends", async () => {
    const member = await signUp();
    const { ticket } = expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "api" } }));
    expect(ticket.split(".")).toHaveLength(3);
    expectOk(await call("POST", `/private/core/otp/${member.memberId}`, { headers: { Authorization: `Bearer ${ticket}` }, body: {} }));
    // A socket ticket is not an API credential.
    const socket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "socket" } }));
    expectFailure(await call("POST", `/private/core/otp/${member.memberId}`, { headers: { Authorization: `Bearer ${socket.ticket}` }, body: {} }), 401, "100003");
    expectOk(await call("POST", "/private/core/sessions/expire", { as: member }));
    expectFailure(await call("POST", `/private/core/otp/${member.memberId}`, { headers: { Authorization: `Bearer ${ticket}` }, body: {} }), 401, "100003");
  });

  it("accepts the session cookie, but refuses cookie writes from another origin", async () => {
    const member = await signUp();
    const cookie = `velvet_session=${member.memberId}.${member.token}`;
    const foreign = await fetchWorker(`/api/v7/private/core/otp/${member.memberId}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(foreign.status).toBe(403);
    const same = await fetchWorker(`/api/v7/private/core/otp/${member.memberId}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "http://velvet.test", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(same.status).toBe(200);
  });
});

describe("passwords", () => {
  it("changes the password and ends the member's other sessions", async () => {
    const member = await signUp();
    const other = expectOk(await login("SMP", member.email, member.password));
    expectOk(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: member.password, newPassword: "brand new password" } }));
    expectFailure(await call("POST", "/private/core/sessions/expire", { headers: { "X-Access-Token": other.token, "X-Member-ID": other.memberId } }), 401, "100003");
    expectOk(await login("SMP", member.email, "brand new password"));
    expectFailure(await login("SMP", member.email, member.password), 401);
  });

  it("refuses a wrong old password and another member's path", async () => {
    const member = await signUp();
    const stranger = await signUp();
    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: "nope", newPassword: "brand new password" } }), 403);
    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: stranger, body: { oldPassword: stranger.password, newPassword: "brand new password" } }), 403);
    const abc = await signUp("ABC");
    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: abc, body: { oldPassword: abc.password, newPassword: "brand new password" } }), 403);
  });

  it("always answers forget-password the same and mails a one-time link that resets once", async () => {
    const member = await signUp();
    const unknown = await call("POST", "/public/core/members/SMP/forget/password", { body: { email: uniqueEmail() } });
    const known = await call("POST", "/public/core/members/SMP/forget/password", { body: { email: member.email } });
    expect(known.body).toMatchObject({ returnCode: "000000", info: unknown.body.info });
    const mail = await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc").bind(member.email).first<{ body: string }>();
    const token = mail?.body.match(/token=([A-Za-z0-9]+)/)?.[1];
    expect(token).toBeTruthy();
    expectOk(await call("POST", "/public/core/members/SMP/reset/password", { body: { token, newPassword: "reset password 1" } }));
    expectFailure(await call("POST", "/public/core/members/SMP/reset/password", { body: { token, newPassword: "reset password 2" } }), 400, "400102");
    expectOk(await login("SMP", member.email, "reset password 1"));
    // The old session ended with the reset.
    expectFailure(await call("POST", "/private/core/sessions/expire", { as: member }), 401, "100003");
  });
});

describe("one-time codes", () => {
  const mailedCode = async (email: string) =>
    (await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc").bind(email).first<{ body: string }>())?.body.match(/(\d{6})/)?.[1];

  it("issues a code by mail and verifies it once; a wrong or spent code is its own error and the session stays valid", async () => {
    const member = await signUp();
    expectOk(await call("POST", `/private/core/otp/${member.memberId}`, { as: member, body: {} }));
    const code = await mailedCode(member.email);
    expectFailure(await call("POST", `/private/core/otp/${member.memberId}`, { as: member, body: { otp: code === "000000" ? "111111" : "000000" } }), 400, "400103");
    expectOk(await call("POST", `/private/core/otp/${member.memberId}`, { as: member, body: { otp: code } }));
    expectFailure(await call("POST", `/private/core/otp/${member.memberId}`, { as: member, body: { otp: code } }), 400, "400104");
    // Neither refusal ended the session.
    expectOk(await call("GET", `/private/core/profiles/${member.memberId}`, { as: member }));
  });

  it("counts parallel wrong guesses atomically: never more than five, and then even the right code is refused", async () => {
    const m = await signUp();
    expectOk(await call("POST", `/private/core/otp/${m.memberId}`, { as: m, body: {} }));
    const code = (await mailedCode(m.email))!;
    const wrong = code === "000000" ? "111111" : "000000";
    const member = { memberId: m.memberId, memberNo: m.memberNo, projectCode: "SMP", sessionId: m.sessionId } as SessionMember;
    // Straight at the service: the route's rate limit (5 a minute) would otherwise hide the race.
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => verifyOtp(env, member, wrong)));
    const codes = outcomes.map((o) => (o.status === "rejected" ? (o.reason as AppError).entry.code : "passed"));
    expect(codes.filter((c) => c === "400103")).toHaveLength(5);
    expect(codes.filter((c) => c === "400104")).toHaveLength(25);
    const row = await env.DB.prepare("select attempts from otp_codes where member_id = ?").bind(m.memberId).first<{ attempts: number }>();
    expect(row?.attempts).toBe(5);
    await expect(verifyOtp(env, member, code)).rejects.toMatchObject({ entry: { code: "400104" } });
  });

  it("lets only one of two parallel right guesses spend the code", async () => {
    const m = await signUp();
    expectOk(await call("POST", `/private/core/otp/${m.memberId}`, { as: m, body: {} }));
    const code = (await mailedCode(m.email))!;
    const member = { memberId: m.memberId, memberNo: m.memberNo, projectCode: "SMP", sessionId: m.sessionId } as SessionMember;
    const outcomes = await Promise.allSettled([verifyOtp(env, member, code), verifyOtp(env, member, code), verifyOtp(env, member, code)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
  });
});

describe("password reset links", () => {
  const mailedToken = async (email: string) =>
    (await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc").bind(email).first<{ body: string }>())?.body.match(/token=([A-Za-z0-9]+)/)?.[1];
  const reset = (token: string | undefined, newPassword: string) => call("POST", "/public/core/members/SMP/reset/password", { body: { token, newPassword } });

  it("builds the link from the configured origin, not from the request's Host", async () => {
    const member = await signUp();
    const response = await fetchWorker("/api/v7/public/core/members/SMP/forget/password", {
      method: "POST",
      headers: { "Content-Type": "application/json", Host: "evil.example", "X-Forwarded-Host": "evil.example" },
      body: JSON.stringify({ email: member.email }),
    });
    expect(response.status).toBe(200);
    const mail = await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc").bind(member.email).first<{ body: string }>();
    expect(mail?.body).toContain(`${env.PUBLIC_ORIGIN}/smp/reset-password?token=`);
    expect(mail?.body).not.toContain("evil.example");
  });

  it("is spent by one of two parallel uses", async () => {
    const member = await signUp();
    expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: member.email } }));
    const token = await mailedToken(member.email);
    const [a, b] = await Promise.all([reset(token, "parallel password a"), reset(token, "parallel password b")]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const winner = a.status === 200 ? "parallel password a" : "parallel password b";
    expectOk(await login("SMP", member.email, winner));
  });

  it("dies with a password change and with a newer link", async () => {
    const member = await signUp();
    expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: member.email } }));
    const beforeChange = await mailedToken(member.email);
    expectOk(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: member.password, newPassword: "changed password 1" } }));
    expectFailure(await reset(beforeChange, "too late password"), 400, "400102");

    expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: member.email } }));
    const older = await mailedToken(member.email);
    expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: member.email } }));
    const newer = await mailedToken(member.email);
    expect(newer).not.toBe(older);
    expectFailure(await reset(older, "older link password"), 400, "400102");
    expectOk(await reset(newer, "newer link password"));
    expectOk(await login("SMP", member.email, "newer link password"));
  });
});

describe("rate limits", () => {
  it("answers 429 in the envelope after too many logins for one account", async () => {
    const member = await signUp();
    // The limiter counts in fixed 60 s windows; a burst may straddle a boundary, so allow two windows' worth.
    let reply = await login("SMP", member.email, "wrong password");
    for (let i = 0; i < 25 && reply.status !== 429; i++) reply = await login("SMP", member.email, "wrong password");
    expectFailure(reply, 429, "429000");
    // Even the right password is refused while limited.
    expectFailure(await login("SMP", member.email, member.password), 429, "429000");
  });

  it("limits logins per address", async () => {
    let reply = await call("POST", "/public/core/sessions/SMP", { body: { username: uniqueEmail(), password: "x" }, headers: { "CF-Connecting-IP": "203.0.113.9" } });
    for (let i = 0; i < 260 && reply.status !== 429; i++) {
      reply = await call("POST", "/public/core/sessions/SMP", { body: { username: uniqueEmail(), password: "x" }, headers: { "CF-Connecting-IP": "203.0.113.9" } });
    }
    expectFailure(reply, 429);
  });
});
