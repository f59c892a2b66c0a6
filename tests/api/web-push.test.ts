import { env } from "cloudflare:test";
import { decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, expectFailure, expectOk, fetchWorker, login, signUp, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

/**
 * Web push (README Decisions "Push that reaches a closed app"). The receiving side is a local push service: every
 * fetch the worker makes to https://push.test is caught here, its aes128gcm body (RFC 8291) decrypted with the
 * browser's private key, and its VAPID JWT (RFC 8292) verified with jose against VAPID_PUBLIC_KEY.
 */

const b64url = (bytes: ArrayBuffer | Uint8Array) => {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return btoa(String.fromCharCode(...view)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const unb64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const text = (s: string) => new TextEncoder().encode(s);

/** A browser: its ECDH key pair and auth secret, and the subscription it hands to the app. */
async function browser(name: string) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  const endpoint = `https://push.test/send/${name}-${crypto.randomUUID()}`;
  return { keys, publicRaw, auth, endpoint, subscription: { endpoint, keys: { p256dh: b64url(publicRaw), auth: b64url(auth) } } };
}
type Browser = Awaited<ReturnType<typeof browser>>;

/** RFC 8291 §3.4 + RFC 8188: decrypt an aes128gcm push body with the browser's keys. */
async function decrypt(device: Browser, body: Uint8Array) {
  const salt = body.slice(0, 16);
  const idlen = body[20]!;
  const serverPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const serverKey = await crypto.subtle.importKey("raw", serverPublic as BufferSource, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const shared = await crypto.subtle.deriveBits({ name: "ECDH", public: serverKey } as EcdhKeyDeriveParams, device.keys.privateKey, 256);
  const hkdf = async (salt: Uint8Array, ikm: ArrayBuffer | Uint8Array, info: Uint8Array, bits: number) =>
    crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: salt as BufferSource, info: info as BufferSource }, await crypto.subtle.importKey("raw", ikm as BufferSource, "HKDF", false, ["deriveBits"]), bits);
  const ikm = await hkdf(device.auth, shared, concat(text("WebPush: info\0"), device.publicRaw, serverPublic), 256);
  const cek = await hkdf(salt, ikm, text("Content-Encoding: aes128gcm\0"), 128);
  const nonce = await hkdf(salt, ikm, text("Content-Encoding: nonce\0"), 96);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(nonce) }, key, ciphertext as BufferSource));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2); // the last record's delimiter
  return new TextDecoder().decode(padded.slice(0, end));
}

type Received = { url: string; headers: Headers; body: Uint8Array };
let received: Received[] = [];
let answer = 201;

beforeEach(() => {
  received = [];
  answer = 201;
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "push.test") return realFetch(input, init);
    received.push({ url: request.url, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) });
    return new Response(null, { status: answer });
  });
});
afterEach(() => vi.restoreAllMocks());

const register = (as: Member, device: Browser, memberId = as.memberId) =>
  call("PUT", `/private/sns/notifications/source/${memberId}`, { as, body: { sourceKey: device.endpoint, subscription: device.subscription } });
const rows = async (where = "1 = 1", ...binds: unknown[]) =>
  (await env.DB.prepare(`select member_id as memberId, session_id as sessionId, endpoint from push_subscriptions where ${where}`).bind(...binds).all<{ memberId: string; sessionId: string; endpoint: string }>()).results;
const follow = (actor: Member, target: Member) => call("POST", `/private/core/follows/${target.memberNo}`, { as: actor });
async function pushesTo(device: Browser, expected = 1, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && received.filter((r) => r.url === device.endpoint).length < expected) await new Promise((r) => setTimeout(r, 25));
  return received.filter((r) => r.url === device.endpoint);
}
const settle = () => new Promise((r) => setTimeout(r, 400));

describe("what leaves the server", () => {
  it("sends an aes128gcm payload with no name or text, signed with VAPID for the push service's origin", async () => {
    const [owner, fan] = [await signUp(), await signUp()];
    await env.DB.prepare("update profiles set nickname = 'Secret Nick', introduction = 'very private' where member_id = ?").bind(fan.memberId).run();
    const device = await browser("owner");
    expect(expectOk(await register(owner, device))).toMatchObject({ sourceKey: device.endpoint, source: "WEB_PUSH", subscribed: true });
    expectOk(await follow(fan, owner));
    const [push] = await pushesTo(device);
    expect(push).toBeDefined();

    expect(push!.headers.get("Content-Encoding")).toBe("aes128gcm");
    expect(Number(push!.headers.get("TTL"))).toBeGreaterThan(0);
    expect(Number(push!.headers.get("TTL"))).toBeLessThanOrEqual(12 * 3600);
    const payload = JSON.parse(await decrypt(device, push!.body));
    expect(payload).toEqual({ v: 1, url: "/smp/notification", tag: "velvet-inbox" });
    const plain = new TextDecoder().decode(push!.body) + JSON.stringify(Object.fromEntries(push!.headers));
    for (const leak of ["Secret Nick", "very private", fan.memberNo, fan.memberId, "follow"]) expect(plain).not.toContain(leak);

    // VAPID: "vapid t=<JWT>, k=<server public key>"; the JWT is ES256 for the endpoint's origin, expiring within 24 h.
    const authorization = push!.headers.get("Authorization")!;
    const [, jwt, k] = authorization.match(/^vapid t=([^,]+),\s*k=(.+)$/)!;
    expect(k).toBe(env.VAPID_PUBLIC_KEY);
    expect(decodeProtectedHeader(jwt!).alg).toBe("ES256");
    const point = unb64url(env.VAPID_PUBLIC_KEY);
    const key = await importJWK({ kty: "EC", crv: "P-256", x: b64url(point.slice(1, 33)), y: b64url(point.slice(33)) }, "ES256");
    const { payload: claims } = await jwtVerify(jwt!, key, { audience: "https://push.test" });
    expect(claims.sub).toBe(env.VAPID_SUBJECT);
    expect(claims.exp! - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
  });

  it("pushes only when the member has no open socket", async () => {
    const [owner, fan] = [await signUp(), await signUp()];
    const device = await browser("open");
    expectOk(await register(owner, device));
    const inbox = (await openSocket(owner, "member-inbox", `SMP~${owner.memberId}`)) as TestSocket;
    await inbox.next((e) => e.type === "inbox.counts");
    expectOk(await follow(fan, owner));
    await inbox.next((e) => e.type === "notification");
    await settle();
    expect(received).toHaveLength(0);
    inbox.close();
  });

  it("a muted or blocked sender never pushes", async () => {
    const [owner, muted, blocked] = [await signUp(), await signUp(), await signUp()];
    const device = await browser("mutes");
    expectOk(await register(owner, device));
    expectOk(await call("POST", "/private/core/mutes", { as: owner, body: { targetMemberNo: muted.memberNo } }));
    expectOk(await call("POST", "/private/core/blocks", { as: owner, body: { targetMemberNo: blocked.memberNo } }));
    expectOk(await follow(muted, owner));
    await follow(blocked, owner);
    await settle();
    expect(received).toHaveLength(0);
  });
});

describe("subscription rules", () => {
  it("refuses bad subscriptions with a 400 envelope and stores nothing", async () => {
    const m = await signUp();
    const device = await browser("bad");
    const bad = [
      { ...device.subscription, endpoint: "http://push.test/plain" },
      { ...device.subscription, endpoint: "https://127.0.0.1/send" },
      { ...device.subscription, endpoint: "https://localhost/send" },
      { ...device.subscription, keys: { ...device.subscription.keys, p256dh: "short" } },
      { ...device.subscription, keys: { ...device.subscription.keys, auth: b64url(new Uint8Array(15)) } },
    ];
    for (const subscription of bad) {
      expectFailure(await call("PUT", `/private/sns/notifications/source/${m.memberId}`, { as: m, body: { sourceKey: "k", subscription } }), 400);
    }
    expect(await rows("member_id = ?", m.memberId)).toHaveLength(0);
  });

  it("another member can neither register for me nor remove or take over my live device", async () => {
    const [me, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    const device = await browser("mine");
    expectFailure(await register(other, device, me.memberId), 403);
    expectFailure(await register(foreign, device, me.memberId), 403);
    expectOk(await register(me, device));
    // Replaying my endpoint under their own account changes nothing of mine.
    expect(expectOk(await register(other, device)).subscribed).toBe(false);
    expect(expectOk(await register(foreign, device)).subscribed).toBe(false);
    expectFailure(await call("DELETE", `/private/sns/notifications/source/${other.memberId}`, { as: other, body: { endpoint: device.endpoint } }), 404);
    expectFailure(await call("DELETE", `/private/sns/notifications/source/${foreign.memberId}`, { as: foreign, body: { endpoint: device.endpoint } }), 404);
    expectFailure(await call("DELETE", `/private/sns/notifications/source/${me.memberId}`, { as: other, body: { endpoint: device.endpoint } }), 403);
    expect(await rows("endpoint = ?", device.endpoint)).toEqual([{ memberId: me.memberId, sessionId: me.sessionId, endpoint: device.endpoint }]);
    expectOk(await call("DELETE", `/private/sns/notifications/source/${me.memberId}`, { as: me, body: { endpoint: device.endpoint } }));
    expect(await rows("endpoint = ?", device.endpoint)).toHaveLength(0);
  });

  it("logout removes that device only; a browser whose account logged out can be taken by the next account", async () => {
    const me = await signUp();
    const phone = await browser("phone");
    const laptop = await browser("laptop");
    expectOk(await register(me, phone));
    const second = expectOk(await login("SMP", me.email, me.password));
    const laptopSession = { ...me, ...second, headers: { "X-Access-Token": second.token, "X-Member-ID": second.memberId } } as Member;
    expectOk(await register(laptopSession, laptop));
    expectOk(await call("POST", "/private/core/sessions/expire", { as: me }));
    expect((await rows("member_id = ?", me.memberId)).map((r) => r.endpoint)).toEqual([laptop.endpoint]);

    // The laptop's session ends otherwise (here: its expiry passes): no push reaches it, and another account
    // logging in on that browser takes the endpoint over.
    await env.DB.prepare("update sessions set expires_at = ? where id = ?").bind(Date.now() - 1, laptopSession.sessionId).run();
    const fan = await signUp();
    expectOk(await follow(fan, me));
    await settle();
    expect(received).toHaveLength(0);
    const next = await signUp();
    expect(expectOk(await register(next, laptop)).subscribed).toBe(true);
    expect(await rows("endpoint = ?", laptop.endpoint)).toEqual([{ memberId: next.memberId, sessionId: next.sessionId, endpoint: laptop.endpoint }]);
  });

  it("a 404 or 410 from the push service removes the subscription", async () => {
    for (const status of [410, 404]) {
      const [owner, fan] = [await signUp(), await signUp()];
      const device = await browser(`gone-${status}`);
      expectOk(await register(owner, device));
      answer = status;
      expectOk(await follow(fan, owner));
      expect(await pushesTo(device)).toHaveLength(1);
      const until = Date.now() + 2000;
      while (Date.now() < until && (await rows("endpoint = ?", device.endpoint)).length) await new Promise((r) => setTimeout(r, 25));
      expect(await rows("endpoint = ?", device.endpoint)).toHaveLength(0);
    }
  });

  it("account deletion removes every device of the member", async () => {
    const me = await signUp();
    expectOk(await register(me, await browser("deleted")));
    expectOk(await call("DELETE", `/private/core/members/${me.memberId}`, { as: me, body: { password: me.password } }));
    expect(await rows("member_id = ?", me.memberId)).toHaveLength(0);
  });

  it("serves the VAPID public key to members only", async () => {
    const m = await signUp();
    expect(expectOk(await call("GET", "/private/sns/notifications/vapid-key", { as: m }))).toEqual({ publicKey: env.VAPID_PUBLIC_KEY });
    expectFailure(await call("GET", "/private/sns/notifications/vapid-key", { as: null }), 401);
  });
});

describe("the web app manifest", () => {
  it("is served per tenant with start_url at its home, standalone, with an icon", async () => {
    const response = await fetchWorker("/SMP/manifest.webmanifest");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Record<string, any>;
    expect(manifest).toMatchObject({ name: "Velvet", start_url: "/smp/home", display: "standalone", scope: "/" });
    expect(manifest.icons.length).toBeGreaterThan(0);
    expect((await fetchWorker("/smpx/manifest.webmanifest")).status).toBe(404);
  });
});
