import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import worker from "../../worker/test-entry";
import { call, signUp, type Json, type Member } from "../support/client";
import { FakeLineIssuer } from "../support/fake-line-issuer";
import { FRESH_SIGN_IN } from "../../worker/features/privacy/privacy.service";

/**
 * LINE login, bind, unbind (§7; README Decisions "LINE login"; SECURITY.md "LINE login"). The worker talks to a fake
 * LINE issuer (tests/support/fake-line-issuer.ts) that every fetch to https://line.test reaches, never the network.
 */
const ISSUER = "https://line.test";
const fake = new FakeLineIssuer(ISSUER);
const lineEnv = { ...env, LINE_ISSUER: ISSUER, LINE_CHANNEL_ID: fake.channelId, LINE_CHANNEL_SECRET: fake.channelSecret } as unknown as Env;
const ORIGIN = "http://velvet.test";
const callbackUrl = (project: string) => `${ORIGIN}/${project.toLowerCase()}/line-callback`;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  fake.tweaks = {};
  fake.nextSub = null;
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "line.test") return realFetch(input, init);
    return fake.handle(request);
  });
  // The worker logs why a sign-in was refused (never the token); keep the test output quiet, read the reasons.
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Reply = { status: number; body: Json; cookies: Record<string, string> };

/** Calls the worker with LINE configured (or `target`), sending `cookies`; answers the cookies it set. */
async function send(method: string, path: string, options: { body?: unknown; as?: Member; cookies?: Record<string, string>; target?: Env } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.as?.headers ?? {}) };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const cookie = Object.entries(options.cookies ?? {}).map(([k, v]) => `${k}=${v}`).join("; ");
  if (cookie) headers.Cookie = cookie;
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}/api/v7${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }),
    options.target ?? lineEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const cookies: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    cookies[pair!.slice(0, eq)] = pair!.slice(eq + 1);
  }
  return { status: response.status, body: (await response.json()) as Json, cookies };
}

/** What LINE sends the browser back with, after signing `sub` in at the fake. */
async function atLine(authorizeUrl: string, sub?: string) {
  if (sub) fake.nextSub = sub;
  const response = await fake.handle(new Request(authorizeUrl));
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get("Location")!);
  return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")!, redirectUrl: `${back.origin}${back.pathname}` };
}

/** Starts a LINE login in a fresh browser (cookie jar), signs `sub` in at LINE, and posts the code back. */
async function lineLogin(project: string, sub: string) {
  const start = await send("POST", `/public/core/line/${project}/authorize`, { body: { redirectUrl: callbackUrl(project) } });
  expect(start.status).toBe(200);
  const back = await atLine(start.body.info.authorizeUrl, sub);
  const reply = await send("POST", `/public/core/sessions/${project}/line`, { body: back, cookies: start.cookies });
  return { start, back, reply };
}

/** A new LINE user signs in and confirms they are an adult: the member it makes. */
async function lineMember(project: string, sub: string) {
  const { reply } = await lineLogin(project, sub);
  expect(reply.body.info).toEqual({ needsRegistration: true });
  const made = await send("POST", `/public/core/members/${project}/line`, { body: { adult: true }, cookies: reply.cookies });
  expect(made.status).toBe(200);
  const info = made.body.info;
  return { ...info, email: "", password: "", headers: { "X-Access-Token": info.token, "X-Member-ID": info.memberId } } as Member;
}

async function startBind(member: Member) {
  const start = await send("POST", `/private/core/members/line/${member.memberId}/authorize`, { as: member, body: { redirectUrl: callbackUrl(member.projectCode) } });
  expect(start.status).toBe(200);
  return start;
}

async function bind(member: Member, sub: string) {
  const start = await startBind(member);
  const back = await atLine(start.body.info.authorizeUrl, sub);
  return send("POST", `/private/core/members/line/${member.memberId}`, { as: member, body: back, cookies: start.cookies });
}

const count = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first<{ n: number }>())!.n;
const members = (project: string) => count("select count(*) as n from members where project_code = ?", project);
const bindings = () => count("select count(*) as n from line_accounts");
let subCounter = 0;
const newSub = () => `U${Date.now().toString(16)}${(++subCounter).toString().padStart(6, "0")}`;

describe("LINE sign-in: what works", () => {
  it("a new LINE user becomes a member only after the adult confirmation, then is signed in like a password login", async () => {
    const sub = newSub();
    const before = await members("SMP");
    const { start, reply } = await lineLogin("SMP", sub);
    // The authorization asks LINE for the user id only, with PKCE (S256), state and nonce.
    const authorize = new URL(start.body.info.authorizeUrl);
    expect(authorize.origin + authorize.pathname).toBe(`${ISSUER}/oauth2/v2.1/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ scope: "openid", code_challenge_method: "S256", client_id: fake.channelId, redirect_uri: callbackUrl("SMP") });
    expect(authorize.searchParams.get("nonce")).toMatch(/^.{20,}$/);
    expect(start.cookies.velvet_line_state).toBe(authorize.searchParams.get("state"));

    expect(reply.status).toBe(200);
    expect(reply.body.info).toEqual({ needsRegistration: true });
    expect(reply.cookies.velvet_line_signup).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(reply.cookies.velvet_session).toBeUndefined();
    expect(await members("SMP")).toBe(before);

    // The adult confirmation is required, never implied.
    const refused = await send("POST", "/public/core/members/SMP/line", { body: {}, cookies: reply.cookies });
    expect(refused.status).toBe(400);
    expect(await members("SMP")).toBe(before);

    const made = await send("POST", "/public/core/members/SMP/line", { body: { adult: true }, cookies: reply.cookies });
    expect(made.status).toBe(200);
    expect(made.body.info).toMatchObject({ projectCode: "SMP", token: expect.stringMatching(/^.{32}$/) });
    expect(made.cookies.velvet_session).toContain(made.body.info.memberId);
    expect(await members("SMP")).toBe(before + 1);
    // Nothing of the LINE profile is kept: the sub only as a hash, no password, a placeholder address.
    const row = await env.DB.prepare("select m.email, m.password_hash, l.line_sub_hash from members m join line_accounts l on l.member_id = m.id where m.id = ?")
      .bind(made.body.info.memberId)
      .first<Record<string, string>>();
    expect(row).toMatchObject({ password_hash: "", email: expect.stringMatching(/@line\.invalid$/) });
    expect(row!.line_sub_hash).not.toContain(sub);
    expect(JSON.stringify(made.body)).not.toContain(sub);

    // The registration ticket is spent.
    const again = await send("POST", "/public/core/members/SMP/line", { body: { adult: true }, cookies: reply.cookies });
    expect(again.status).toBe(400);
    expect(again.body.returnCode).toBe("400131");
    expect(await members("SMP")).toBe(before + 1);

    // The session works on private calls.
    const member = { headers: { "X-Access-Token": made.body.info.token, "X-Member-ID": made.body.info.memberId } } as unknown as Member;
    expect((await call("GET", `/private/core/profiles/${made.body.info.memberId}`, { as: member })).status).toBe(200);
  });

  it("a member with that LINE account bound is logged in, with the same session machinery as password login", async () => {
    const sub = newSub();
    const member = await lineMember("SMP", sub);
    const { reply } = await lineLogin("SMP", sub);
    expect(reply.status).toBe(200);
    expect(reply.body.info).toMatchObject({ memberId: member.memberId, memberNo: member.memberNo, projectCode: "SMP" });
    expect(reply.body.info.token).not.toBe(member.token);
    expect(reply.cookies.velvet_session).toBe(`${member.memberId}.${reply.body.info.token}`);
    expect(reply.cookies.velvet_line_signup).toBeUndefined();
    const session = await env.DB.prepare("select count(*) as n from sessions where member_id = ? and ended_at is null").bind(member.memberId).first<{ n: number }>();
    expect(session!.n).toBe(2);
  });

  it("accepts an HS256 ID token signed with the channel secret (LINE's web login)", async () => {
    fake.tweaks = { hs256Secret: fake.channelSecret };
    const { reply } = await lineLogin("SMP", newSub());
    expect(reply.status).toBe(200);
    expect(reply.body.info).toEqual({ needsRegistration: true });
  });
});

describe("LINE sign-in: what is refused (4xx, nothing changes)", () => {
  it("a replayed state or code", async () => {
    const { start, back, reply } = await lineLogin("SMP", newSub());
    expect(reply.status).toBe(200);
    const tokenRequests = fake.tokenRequests;
    const replay = await send("POST", "/public/core/sessions/SMP/line", { body: back, cookies: start.cookies });
    expect(replay.status).toBe(400);
    expect(replay.body.returnCode).toBe("400131");
    // Refused before LINE is asked.
    expect(fake.tokenRequests).toBe(tokenRequests);
  });

  it("a state this browser did not start, none, another tenant's, a changed redirectUrl, or an expired one", async () => {
    const before = [await members("SMP"), await bindings()];
    const mine = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl: callbackUrl("SMP") } });
    const theirs = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl: callbackUrl("SMP") } });
    const back = await atLine(theirs.body.info.authorizeUrl);
    const tokenRequests = fake.tokenRequests;
    for (const [cookies, body] of [
      [mine.cookies, back],
      [{}, back],
      [theirs.cookies, { ...back, state: `${back.state}x` }],
      [theirs.cookies, { ...back, redirectUrl: `${ORIGIN}/smp/line-callback-other` }],
    ] as const) {
      const reply = await send("POST", "/public/core/sessions/SMP/line", { body, cookies });
      expect([reply.status, reply.body.returnCode]).toEqual([400, "400131"]);
    }
    const otherTenant = await send("POST", "/public/core/sessions/SMQ/line", { body: back, cookies: theirs.cookies });
    expect([otherTenant.status, otherTenant.body.returnCode]).toEqual([400, "400131"]);

    const late = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl: callbackUrl("SMP") } });
    const lateBack = await atLine(late.body.info.authorizeUrl);
    await env.DB.prepare("update line_auth_states set expires_at = ? where used_at is null and purpose = 'login'").bind(Date.now() - 1).run();
    const expired = await send("POST", "/public/core/sessions/SMP/line", { body: lateBack, cookies: late.cookies });
    expect([expired.status, expired.body.returnCode]).toEqual([400, "400131"]);

    expect(fake.tokenRequests).toBe(tokenRequests);
    expect([await members("SMP"), await bindings()]).toEqual(before);
  });

  // Each case names the check that refused it (the worker's warning line), so none passes for another reason.
  const badTokens: [string, FakeLineIssuer["tweaks"], RegExp][] = [
    ["a wrong nonce", { nonce: "not-the-nonce-we-sent" }, /nonce or subject mismatch/],
    ["a wrong audience", { audience: "1659999999" }, /aud\W{0,3} claim/],
    ["an expired token", { expiresIn: -120 }, /exp\W{0,3} claim/],
    ["a bad signature (a key not in the JWKS)", { foreignKey: true }, /signature verification failed/],
    ["another issuer", { issuer: "https://evil.test" }, /iss\W{0,3} claim/],
    ["HS256 with another secret", { hs256Secret: "not-the-channel-secret-0123456789" }, /signature verification failed/],
  ];
  for (const [name, tweaks, reason] of badTokens) {
    it(`an ID token with ${name}`, async () => {
      const before = [await members("SMP"), await bindings()];
      fake.tweaks = tweaks;
      const { reply } = await lineLogin("SMP", newSub());
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ returnCode: "401131", returnMessage: "LINE could not confirm who you are; please try again" });
      expect(reply.cookies.velvet_session).toBeUndefined();
      expect(reply.cookies.velvet_line_signup).toBeUndefined();
      expect([await members("SMP"), await bindings()]).toEqual(before);
      expect(warn.mock.calls.map((args) => String(args[0])).join("\n")).toMatch(reason);
    });
  }

  it("a code LINE refuses (wrong PKCE verifier): the token endpoint says no", async () => {
    const start = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl: callbackUrl("SMP") } });
    const back = await atLine(start.body.info.authorizeUrl);
    await env.DB.prepare("update line_auth_states set code_verifier = ? where used_at is null and purpose = 'login'").bind("x".repeat(43)).run();
    const reply = await send("POST", "/public/core/sessions/SMP/line", { body: back, cookies: start.cookies });
    expect([reply.status, reply.body.returnCode]).toEqual([401, "401131"]);
  });

  it("a redirectUrl that is not this tenant's callback on our origin", async () => {
    for (const redirectUrl of ["https://evil.example/smp/line-callback", `${ORIGIN}/smq/line-callback`, `${ORIGIN}/smp/home`, `${ORIGIN}/smp/line-callback?next=x`, "not a url"]) {
      const reply = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl } });
      expect([redirectUrl, reply.status]).toEqual([redirectUrl, 400]);
    }
  });

  it("without LINE configured: no button (enabled false) and every flow answers 404 lineNotConfigured", async () => {
    const member = await signUp("SMP");
    expect((await send("GET", "/public/core/line/SMP", { target: env as unknown as Env })).body.info).toEqual({ enabled: false });
    expect((await send("GET", "/public/core/line/SMP")).body.info).toEqual({ enabled: true });
    for (const [method, path, as] of [
      ["POST", "/public/core/line/SMP/authorize", undefined],
      ["POST", "/public/core/sessions/SMP/line", undefined],
      ["POST", "/public/core/members/SMP/line", undefined],
      ["POST", `/private/core/members/line/${member.memberId}/authorize`, member],
      ["POST", `/private/core/members/line/${member.memberId}`, member],
    ] as const) {
      const body = path.endsWith("authorize") ? { redirectUrl: callbackUrl("SMP") } : path.includes("/members/SMP") ? { adult: true } : { code: "c", state: "s".repeat(20), redirectUrl: callbackUrl("SMP") };
      const reply = await send(method, path, { as, body, target: env as unknown as Env });
      expect([path, reply.status, reply.body.returnCode]).toEqual([path, 404, "404131"]);
    }
    const status = await send("GET", `/private/core/members/line/${member.memberId}`, { as: member, target: env as unknown as Env });
    expect(status.body.info).toEqual({ enabled: false, bound: false, boundAt: null, hasPassword: true });
  });
});

describe("LINE bind and unbind", () => {
  it("a member binds from My profile, then logs in with LINE; unbinds while keeping a password", async () => {
    const member = await signUp("SMP");
    const sub = newSub();
    const bound = await bind(member, sub);
    expect(bound.status).toBe(200);
    expect(bound.body.info).toMatchObject({ enabled: true, bound: true, hasPassword: true, boundAt: expect.any(String) });
    // Binding the same account again changes nothing.
    expect((await bind(member, sub)).status).toBe(200);

    const { reply } = await lineLogin("SMP", sub);
    expect(reply.body.info).toMatchObject({ memberId: member.memberId });

    const unbound = await send("DELETE", `/private/core/members/line/${member.memberId}`, { as: member });
    expect(unbound.status).toBe(200);
    expect(unbound.body.info).toMatchObject({ bound: false, hasPassword: true });
    const again = await send("DELETE", `/private/core/members/line/${member.memberId}`, { as: member });
    expect([again.status, again.body.returnCode]).toEqual([404, "404132"]);
    // Unbound: the same LINE account is a new user again.
    expect((await lineLogin("SMP", sub)).reply.body.info).toEqual({ needsRegistration: true });
  });

  it("one LINE account binds to at most one member per tenant; a member holds one LINE account", async () => {
    const first = await signUp("SMP");
    const second = await signUp("SMP");
    const sub = newSub();
    expect((await bind(first, sub)).status).toBe(200);
    const taken = await bind(second, sub);
    expect([taken.status, taken.body.returnCode]).toEqual([409, "409131"]);
    const other = await bind(first, newSub());
    expect([other.status, other.body.returnCode]).toEqual([409, "409132"]);
    expect(await count("select count(*) as n from line_accounts where member_id in (?, ?)", first.memberId, second.memberId)).toBe(1);
  });

  it("unbinding is refused while the account has no password (a LINE-made account)", async () => {
    const member = await lineMember("SMP", newSub());
    const status = await send("GET", `/private/core/members/line/${member.memberId}`, { as: member });
    expect(status.body.info).toMatchObject({ bound: true, hasPassword: false });
    const refused = await send("DELETE", `/private/core/members/line/${member.memberId}`, { as: member });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ returnCode: "409133" });
    expect(await count("select count(*) as n from line_accounts where member_id = ?", member.memberId)).toBe(1);
  });

  it("an account made through LINE is deleted only from a LINE sign-in of the last 10 minutes; a password account still needs its password", async () => {
    const stale = await lineMember("SMP", newSub());
    await env.DB.prepare("update sessions set created_at = ? where member_id = ?").bind(Date.now() - FRESH_SIGN_IN - 60_000, stale.memberId).run();
    const refused = await send("DELETE", `/private/core/members/${stale.memberId}`, { as: stale, body: { password: "" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ returnCode: "403131" });
    expect(await count("select count(*) as n from members where id = ? and status = 'active'", stale.memberId)).toBe(1);

    const fresh = await lineMember("SMP", newSub());
    const deleted = await send("DELETE", `/private/core/members/${fresh.memberId}`, { as: fresh, body: { password: "" } });
    expect(deleted.status).toBe(200);
    expect(await count("select count(*) as n from line_accounts where member_id = ?", fresh.memberId)).toBe(0);

    const withPassword = await signUp();
    const empty = await send("DELETE", `/private/core/members/${withPassword.memberId}`, { as: withPassword, body: { password: "" } });
    expect(empty.body).toMatchObject({ returnCode: "403101" });
  });

  it("a bind started by one member cannot be finished by another, nor started for someone else", async () => {
    const owner = await signUp("SMP");
    const intruder = await signUp("SMP");
    const start = await startBind(owner);
    const back = await atLine(start.body.info.authorizeUrl);
    const stolen = await send("POST", `/private/core/members/line/${intruder.memberId}`, { as: intruder, body: back, cookies: start.cookies });
    expect([stolen.status, stolen.body.returnCode]).toEqual([400, "400131"]);
    // A login state is not a bind state either.
    const login = await send("POST", "/public/core/line/SMP/authorize", { body: { redirectUrl: callbackUrl("SMP") } });
    const loginBack = await atLine(login.body.info.authorizeUrl);
    const crossed = await send("POST", `/private/core/members/line/${owner.memberId}`, { as: owner, body: loginBack, cookies: login.cookies });
    expect([crossed.status, crossed.body.returnCode]).toEqual([400, "400131"]);
    for (const [method, path] of [
      ["POST", `/private/core/members/line/${owner.memberId}/authorize`],
      ["GET", `/private/core/members/line/${owner.memberId}`],
      ["DELETE", `/private/core/members/line/${owner.memberId}`],
    ] as const) {
      const reply = await send(method, path, { as: intruder, body: method === "POST" ? { redirectUrl: callbackUrl("SMP") } : undefined });
      expect([path, reply.status]).toEqual([path, 403]);
    }
    expect(await count("select count(*) as n from line_accounts where member_id in (?, ?)", owner.memberId, intruder.memberId)).toBe(0);
  });

  it("bindings are per tenant: the same LINE account may bind in another tenant and logs in there only", async () => {
    const sub = newSub();
    const smp = await signUp("SMP");
    const smq = await signUp("SMQ");
    expect((await bind(smp, sub)).status).toBe(200);
    expect((await bind(smq, sub)).status).toBe(200);
    expect((await lineLogin("SMQ", sub)).reply.body.info).toMatchObject({ memberId: smq.memberId, projectCode: "SMQ" });
    expect((await lineLogin("SMP", sub)).reply.body.info).toMatchObject({ memberId: smp.memberId, projectCode: "SMP" });
    // A LINE user bound only in SMP is a new user in a third tenant.
    const only = newSub();
    expect((await bind(await signUp("SMP"), only)).status).toBe(200);
    expect((await lineLogin("SMR", only)).reply.body.info).toEqual({ needsRegistration: true });
  });
});
