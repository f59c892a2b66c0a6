import { env } from "cloudflare:test";
import { describe, expect, it, } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { recordPushes } from "../support/push-service";

/**
 * Quiet hours for web push (README Decisions "Push that reaches a closed app"). The receiving side is the same local
 * push service as tests/api/web-push.test.ts: every fetch the worker makes to https://push.test is caught here.
 */

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A browser subscription (the keys are real: the worker encrypts to them). */
async function browser(name: string) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const endpoint = `https://push.test/send/${name}-${crypto.randomUUID()}`;
  return { endpoint, subscription: { endpoint, keys: { p256dh: b64url(publicRaw), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) } } };
}
type Browser = Awaited<ReturnType<typeof browser>>;

const pushes = recordPushes();

const register = (as: Member, device: Browser) =>
  call("PUT", `/private/sns/notifications/source/${as.memberId}`, { as, body: { sourceKey: device.endpoint, subscription: device.subscription } });
const quietPath = (m: Member) => `/private/sns/notifications/quiet-hours/${m.memberId}`;
const setQuiet = (as: Member, body: unknown, of: Member = as) => call("PUT", quietPath(of), { as, body });
const follow = (actor: Member, target: Member) => call("POST", `/private/core/follows/${target.memberNo}`, { as: actor });
const inbox = async (m: Member) => (await env.DB.prepare("select count(*) as n from notifications where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n;
const settle = () => new Promise((r) => setTimeout(r, 400));
async function pushesTo(device: Browser, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !pushes.urls.includes(device.endpoint)) await new Promise((r) => setTimeout(r, 25));
  return pushes.urls.filter((u) => u === device.endpoint).length;
}

/** The hour now in Tokyo (UTC+9, no daylight saving): windows are set around it, a few hours wide against clock ticks. */
const tokyoHour = () => (new Date().getUTCHours() + 9) % 24;
const around = (from: number, to: number) => ({ startHour: (tokyoHour() + from + 24) % 24, endHour: (tokyoHour() + to + 24) % 24 });

describe("quiet hours for web push", () => {
  it("inside quiet hours nothing reaches the push service, the notice still lands in the inbox; outside it does", async () => {
    const [owner, fan, other] = [await signUp(), await signUp(), await signUp()];
    const device = await browser("quiet");
    expectOk(await register(owner, device));
    // Spanning the current Tokyo hour (and midnight in some runs: start > end wraps).
    const inside = { enabled: true, ...around(-1, 2), timeZone: "Asia/Tokyo" };
    expect(expectOk(await setQuiet(owner, inside))).toEqual(inside);
    expect(expectOk(await call("GET", quietPath(owner), { as: owner }))).toEqual(inside);
    expectOk(await follow(fan, owner));
    await settle();
    expect(pushes.urls).toHaveLength(0);
    expect(await inbox(owner)).toBe(1);

    // The same window is not quiet in a zone where it is another time of day (UTC is 9 hours behind Tokyo).
    expectOk(await setQuiet(owner, { ...inside, timeZone: "UTC" }));
    expectOk(await follow(other, owner));
    expect(await pushesTo(device)).toBe(1);
    expect(await inbox(owner)).toBe(2);
  });

  it("outside the window, and when turned off, pushes arrive", async () => {
    const [owner, fan, fan2] = [await signUp(), await signUp(), await signUp()];
    const device = await browser("loud");
    expectOk(await register(owner, device));
    expectOk(await setQuiet(owner, { enabled: true, ...around(4, 8), timeZone: "Asia/Tokyo" }));
    expectOk(await follow(fan, owner));
    expect(await pushesTo(device)).toBe(1);

    pushes.urls = [];
    expectOk(await setQuiet(owner, { enabled: true, ...around(-1, 2), timeZone: "Asia/Tokyo" }));
    expect(expectOk(await setQuiet(owner, { enabled: false }))).toEqual({ enabled: false });
    expect(expectOk(await call("GET", quietPath(owner), { as: owner }))).toEqual({ enabled: false });
    expectOk(await follow(fan2, owner));
    expect(await pushesTo(device)).toBe(1);
  });

  it("another member, here or in another tenant, can neither read nor set mine", async () => {
    const [me, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    const mine = { enabled: true, startHour: 22, endHour: 7, timeZone: "Europe/Berlin" };
    expectOk(await setQuiet(me, mine));
    for (const intruder of [other, foreign]) {
      const read = await call("GET", quietPath(me), { as: intruder });
      expectFailure(read, 403);
      expect(JSON.stringify(read.body)).not.toContain("Berlin");
      expectFailure(await setQuiet(intruder, { enabled: false }, me), 403);
    }
    expectFailure(await call("GET", quietPath(me)), 401);
    expect(expectOk(await call("GET", quietPath(me), { as: me }))).toEqual(mine);
    expect(expectOk(await call("GET", quietPath(other), { as: other }))).toEqual({ enabled: false });
  });

  it("refuses bad values with a 400 envelope and keeps what was stored", async () => {
    const me = await signUp();
    const good = { enabled: true, startHour: 23, endHour: 6, timeZone: "America/New_York" };
    expectOk(await setQuiet(me, good));
    const bad: unknown[] = [
      { ...good, startHour: 24 },
      { ...good, startHour: -1 },
      { ...good, endHour: 6.5 },
      { ...good, endHour: "6" },
      { ...good, endHour: 23 },
      { ...good, timeZone: "Mars/Olympus" },
      { ...good, timeZone: "" },
      { ...good, timeZone: "../../etc" },
      { ...good, timeZone: "x".repeat(300) },
      { enabled: true },
      { enabled: "yes", startHour: 1, endHour: 2, timeZone: "UTC" },
      { enabled: false, startHour: 1 },
      {},
      [],
    ];
    for (const body of bad) {
      const reply = await setQuiet(me, body);
      expectFailure(reply, 400);
      expect(reply.body.returnCode).toBeDefined();
    }
    expect(expectOk(await call("GET", quietPath(me), { as: me }))).toEqual(good);
  });
});
