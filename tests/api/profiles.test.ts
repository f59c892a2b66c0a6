import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { form, giveAvatar, imageBytes, } from "./profiles-helpers";

const me = async (m: Member) => expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
const patch = (m: Member, body: unknown, as: Member | null = m) => call("PATCH", `/private/core/profiles/${m.memberId}`, { as, body });
const block = (from: Member, to: Member) =>
  env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)").bind(from.projectCode, from.memberId, to.memberId, Date.now()).run();
const PRIVATE = ["phone", "mobile", "defaultAddress", "safeword", "emailHash", "memberId"];

describe("GET and PATCH /core/profiles/{memberId}: what works", () => {
  it("returns every §3 field to the owner", async () => {
    const m = await signUp();
    const profile = await me(m);
    for (const key of ["idProfile", "simpleCode", "nickname", "introduction", "avator", "qualify", "blur", "blocked", "unqualifiedCount", "multiGender", "lookFor",
      "muted", "kycStatus", "birthday", "closed", "isRainbow", "safeword", "projectCode", "phone", "mobile", "defaultAddress", "skypeId", "wechatId", "telegramId",
      "twitterId", "instagramId", "dcardId", "websiteUrl", "emailHash", "lastAccess", "biddingCount", "lastBidding", "publicKey", "geohash", "latitude", "longitude"]) {
      expect(profile, key).toHaveProperty(key);
    }
    expect(profile.simpleCode).toBe(m.memberNo);
  });

  it("saves every editable field and derives zodiac and geohash", async () => {
    const m = await signUp();
    const body = {
      nickname: "  Lady Test ", introduction: "x".repeat(160), birthday: "1990-08-01", multiGender: 2, muted: true, isRainbow: true, closed: true, lookFor: 3,
      safeword: "red", phone: "0912", mobile: "0987", defaultAddress: "Taipei", language: "ja", publicKey: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+abc/def==",
      skypeId: "sk", wechatId: "wc", telegramId: "tg", twitterId: "tw", instagramId: "ig", dcardId: "dc", websiteUrl: "https://example.com/me", coordinates: "25.033,121.565",
    };
    const saved = expectOk(await patch(m, body));
    const { coordinates: _pair, ...fields } = body;
    expect(saved).toMatchObject({ ...fields, nickname: "Lady Test", latitude: 25.033, longitude: 121.565, zodiacSign: "leo", genderLocked: true });
    expect(saved.geohash).toMatch(/^wsqq/);
    expect(await me(m)).toMatchObject({ nickname: "Lady Test", phone: "0912", language: "ja" });
  });

  it("saves the safeword only when non-empty and takes a single number as latitude", async () => {
    const m = await signUp();
    expectOk(await patch(m, { safeword: "yellow" }));
    expect(expectOk(await patch(m, { safeword: "" })).safeword).toBe("yellow");
    expect(expectOk(await patch(m, { coordinates: "10,20" }))).toMatchObject({ latitude: 10, longitude: 20 });
    expect(expectOk(await patch(m, { coordinates: 45.5 }))).toMatchObject({ latitude: 45.5, longitude: 20 });
  });

  it("locks multiGender after a confirmed change (§4)", async () => {
    const m = await signUp();
    expect(expectOk(await patch(m, { multiGender: 3 }))).toMatchObject({ multiGender: 3, genderLocked: true });
    expectFailure(await patch(m, { multiGender: 4 }), 409, "409201");
    expectOk(await patch(m, { multiGender: 3 }));
    expect((await me(m)).multiGender).toBe(3);
  });

  it("shows another member only the public subset, with relationship, zodiac, match rate and distance", async () => {
    const owner = await signUp();
    const viewer = await signUp();
    expectOk(await patch(owner, { phone: "123", safeword: "red", defaultAddress: "home", birthday: "1992-03-25", coordinates: "25.0,121.5", showPosition: true }));
    expectOk(await patch(viewer, { coordinates: "35.0,139.0" }));
    const seen = expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: viewer }));
    for (const key of PRIVATE) expect(seen, key).not.toHaveProperty(key);
    expect(seen).toMatchObject({ simpleCode: owner.memberNo, zodiacSign: "aries", relationship: { following: false, blocking: null } });
    expect(seen.distanceKm).toBeGreaterThan(1500);
    expect(seen.distanceKm).toBeLessThan(2500);
    expect(Number.isInteger(seen.distanceKm)).toBe(true);
    // Tokyo → Taipei is south-west (README "Cells, not positions": eight compass points, never degrees).
    expect(seen.bearing).toBe("SW");
    expect(seen.matchRate).toBe(0);
    const byId = expectOk(await call("GET", `/private/core/profiles/${owner.memberId}`, { as: viewer }));
    for (const key of PRIVATE) expect(byId, key).not.toHaveProperty(key);
    const anonymous = expectOk(await call("GET", `/public/core/profiles/SMP/member/${owner.memberNo}`));
    for (const key of PRIVATE) expect(anonymous, key).not.toHaveProperty(key);
    expect(anonymous.matchRate).toBeNull();
  });
});

describe("PATCH /core/profiles/{memberId}: what is refused", () => {
  it("refuses invalid values and non-editable fields, changing nothing", async () => {
    const m = await signUp();
    expectOk(await patch(m, { nickname: "Before" }));
    const bad = [
      { multiGender: 0 }, { multiGender: 7 }, { lookFor: 7 }, { lookFor: -1 }, { kycStatus: 1 }, { blur: true }, { qualify: "yes" }, { birthday: "1990-02-30" },
      { language: "fr" }, { publicKey: "<script>" }, { publicKey: "A".repeat(5000) }, { websiteUrl: "javascript:alert(1)" }, { nickname: "n".repeat(41) },
      { latitude: 91 }, { longitude: -181 },
    ];
    for (const body of bad) expectFailure(await patch(m, { nickname: "After", ...body }), 400, "400000");
    expectFailure(await patch(m, { coordinates: "95,10" }), 400, "400503");
    expectFailure(await patch(m, { coordinates: "abc" }), 400, "400503");
    expectFailure(await patch(m, { birthday: `${new Date().getUTCFullYear() - 10}-01-01` }), 400, "400502");
    expectFailure(await patch(m, { avator: "/media/SMP/1/avatar/nothere.jpg" }), 400, "400501");
    const after = await me(m);
    expect(after).toMatchObject({ nickname: "Before", kycStatus: 0, multiGender: null, lookFor: 0, latitude: null, birthday: null });
  });

  it("refuses someone else's avatar upload as avator", async () => {
    const a = await signUp();
    const b = await signUp();
    const up = await giveAvatar(a);
    expectFailure(await patch(b, { avator: up.url }), 400, "400501");
    expect((await me(b)).avator).toBe("");
    // The owner may set it (qualification comes from the server's check, not the client).
    expect(expectOk(await patch(a, { avator: up.url, qualify: true }))).toMatchObject({ avator: up.url, qualify: true });
  });
});

describe("profiles: who may not", () => {
  it("anonymous 401, another member 403 on PATCH, another tenant 404", async () => {
    const m = await signUp();
    const other = await signUp();
    const abc = await signUp("ABC");
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`), 401);
    expectFailure(await patch(m, { nickname: "x" }, null), 401);
    expectFailure(await patch(m, { nickname: "hijack" }, other), 403);
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`, { as: abc }), 404);
    expectFailure(await call("GET", `/private/core/profiles/SMP/member/${m.memberNo}`, { as: abc }), 404);
    expectFailure(await call("GET", `/public/core/profiles/ABC/member/${m.memberNo}`), 404);
    expect((await me(m)).nickname).toBe("");
  });

  it("hides blocked members both ways (404), never 403", async () => {
    const a = await signUp();
    const b = await signUp();
    await block(a, b);
    expectFailure(await call("GET", `/private/core/profiles/SMP/member/${b.memberNo}`, { as: a }), 404);
    expectFailure(await call("GET", `/private/core/profiles/SMP/member/${a.memberNo}`, { as: b }), 404);
    expectFailure(await call("GET", `/private/core/profiles/${a.memberId}`, { as: b }), 404);
  });

  it("accepts language and publicKey from the owner only", async () => {
    const m = await signUp();
    const jwk = JSON.stringify({ kty: "EC", crv: "P-256", x: "abc_-123", y: "def456" });
    expect(expectOk(await patch(m, { language: "zh-TW", publicKey: jwk }))).toMatchObject({ language: "zh-TW", publicKey: jwk });
    const viewer = await signUp();
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${m.memberNo}`, { as: viewer })).publicKey).toBe(jwk);
  });
});

describe("visitors, footprints and action stats", () => {
  it("records a visit per view: page views, newest-first visitors with date, footprints by code, activity by hour", async () => {
    const host = await signUp();
    const first = await signUp();
    const second = await signUp();
    const nameless = await signUp();
    expectOk(await patch(first, { nickname: "First" }));
    expectOk(await patch(second, { nickname: "Second" }));
    expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: first }));
    expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: nameless }));
    await new Promise((r) => setTimeout(r, 5));
    const seen = expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: second }));
    expectOk(await call("GET", `/public/core/profiles/SMP/member/${host.memberNo}`));
    expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: host }));
    expect(seen.pageViews).toBe(3);
    expect((await me(host)).pageViews).toBe(4);

    const visitors = expectOk(await call("GET", `/private/sns/visitors/${host.memberId}`, { as: host }));
    expect(visitors.map((v: { nickname: string }) => v.nickname)).toEqual(["Second", "First"]);
    expect(visitors[0].dateUpd).toMatch(/Z$/);
    expect(visitors[0].profile.simpleCode).toBe(second.memberNo);
    // Footprints by code are for members; a visitor gets none (SECURITY.md "What a visitor sees").
    const footprints = expectOk(await call("GET", `/private/sns/visitors/SMP/code/${host.memberNo}`, { as: first }));
    expect(footprints.map((v: { simpleCode: string }) => v.simpleCode)).toEqual([second.memberNo, first.memberNo]);
    expect(expectOk(await call("GET", `/public/sns/visitors/SMP/code/${host.memberNo}`))).toEqual([]);

    const stats = expectOk(await call("GET", `/public/sns/actions/SMP/${first.memberNo}`));
    expect(stats).toHaveLength(24);
    expect(stats[new Date().getUTCHours()].actionCount).toBeGreaterThanOrEqual(2);

    expectFailure(await call("GET", `/private/sns/visitors/${host.memberId}`, { as: first }), 403);
    expectFailure(await call("GET", `/private/sns/visitors/${host.memberId}`), 401);
    const abc = await signUp("ABC");
    expectFailure(await call("GET", `/private/sns/visitors/SMP/code/${host.memberNo}`, { as: abc }), 404);
    expectFailure(await call("GET", `/public/sns/visitors/SMP/code/abc`), 400);
    await block(host, first);
    const after = expectOk(await call("GET", `/private/sns/visitors/${host.memberId}`, { as: host }));
    expect(after.map((v: { nickname: string }) => v.nickname)).toEqual(["Second"]);
  });
});

describe("characters (preferences) and match rate", () => {
  it("lists with checked state, adds and deletes own, lists users per character, and rates the match", async () => {
    const a = await signUp();
    const b = await signUp();
    const list = expectOk(await call("GET", "/private/sns/characters/SMP", { as: a }));
    expect(list.length).toBeGreaterThanOrEqual(10);
    expect(list.every((c: { checked: boolean }) => !c.checked)).toBe(true);
    const [c1, c2, c3] = list.map((c: { idCharacter: number }) => c.idCharacter);
    for (const id of [c1, c2]) expectOk(await call("POST", `/private/sns/characters/${a.memberId}`, { as: a, body: { idCharacter: id } }));
    for (const id of [c1, c3]) expectOk(await call("POST", `/private/sns/characters/${b.memberId}`, { as: b, body: { idCharacter: id } }));
    const mine = expectOk(await call("GET", "/private/sns/characters/SMP", { as: a }));
    expect(mine.filter((c: { checked: boolean }) => c.checked).map((c: { idCharacter: number }) => c.idCharacter)).toEqual([c1, c2]);
    const theirs = expectOk(await call("GET", `/private/sns/characters/SMP?memberNo=${b.memberNo}`, { as: a }));
    expect(theirs.filter((c: { hit: boolean }) => c.hit).map((c: { idCharacter: number }) => c.idCharacter)).toEqual([c1]);

    // 1 shared of 3 combined: sqrt(33.3) x 10 = 58 (§9).
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${b.memberNo}`, { as: a })).matchRate).toBe(58);

    const users = expectOk(await call("GET", `/public/sns/characters/SMP/${c1}/users?pageSize=20`));
    const codes = users.userCharacters.map((u: { simpleCode: string }) => u.simpleCode);
    expect(codes.slice(0, 2)).toEqual([b.memberNo, a.memberNo]);
    expect(users.pageSize).toBe(20);

    expectOk(await call("DELETE", `/private/sns/characters/${a.memberId}/${c2}`, { as: a }));
    const now = expectOk(await call("GET", "/private/sns/characters/SMP", { as: a }));
    expect(now.filter((c: { checked: boolean }) => c.checked).length).toBe(1);
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${b.memberNo}`, { as: a })).matchRate).toBe(71);
  });

  it("refuses bad input, others and anonymous", async () => {
    const a = await signUp();
    const b = await signUp();
    expectFailure(await call("POST", `/private/sns/characters/${a.memberId}`, { as: a, body: { idCharacter: 999999 } }), 404, "404502");
    expectFailure(await call("POST", `/private/sns/characters/${a.memberId}`, { as: a, body: { idCharacter: "x" } }), 400);
    expectFailure(await call("POST", `/private/sns/characters/${a.memberId}`, { as: b, body: { idCharacter: 1 } }), 403);
    expectFailure(await call("POST", `/private/sns/characters/${a.memberId}`, { body: { idCharacter: 1 } }), 401);
    expectFailure(await call("DELETE", `/private/sns/characters/${a.memberId}/1`, { as: b }), 403);
    expectFailure(await call("GET", "/public/sns/characters/SMP/1/users?pageSize=500"), 400);
    const abc = await signUp("ABC");
    expectFailure(await call("GET", "/private/sns/characters/SMP", { as: abc }), 404);
    const rows = await env.DB.prepare("select count(*) as n from user_characters where member_id = ?").bind(a.memberId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("avatar qualification", () => {
  it("core/profiles/unqualified counts each reporter once; new accounts never take an avatar down", async () => {
    const target = await signUp();
    await giveAvatar(target);
    const { idProfile } = await me(target);
    const r1 = await signUp();
    const r2 = await signUp();
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: r1 }))).toMatchObject({ qualify: true, unqualifiedCount: 0 });
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: r1 }))).toMatchObject({ qualify: true });
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: r2 }))).toMatchObject({ qualify: true });
    expect(await env.DB.prepare("select count(*) as n from unqualified_reports where id_profile = ?").bind(idProfile).first("n")).toBe(2);
    expectFailure(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`), 401);
    expectFailure(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: target }), 404);
    expectFailure(await call("PUT", `/private/core/profiles/unqualified/abc`, { as: r1 }), 400);
    expectFailure(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await signUp("ABC") }), 404);
    expect(await me(target)).toMatchObject({ qualify: true, unqualifiedCount: 0 });
  });

  it("a member without a qualified avatar cannot see others' avatars", async () => {
    const shown = await signUp();
    await giveAvatar(shown);
    const noAvatar = await signUp();
    const seen = expectOk(await call("GET", `/private/core/profiles/SMP/member/${shown.memberNo}`, { as: noAvatar }));
    expect(seen).toMatchObject({ avator: "", blur: true });
    const qualified = await signUp();
    await giveAvatar(qualified);
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${shown.memberNo}`, { as: qualified })).avator).toMatch(/^\/media\//);
  });
});

describe("discovery lists", () => {
  it("hide members lacking avatar, unqualified, blurred, reported or blocked either way", async () => {
    const project = "DSC";
    const viewer = await signUp(project);
    await giveAvatar(viewer);
    const good = await signUp(project);
    await giveAvatar(good);
    expectOk(await patch(good, { nickname: "Good One", introduction: "I am a long enough introduction for the list", birthday: "1990-08-01", language: "ja", lookFor: 2, multiGender: 1 }));
    const bare = await signUp(project);
    const blurred = await signUp(project);
    await giveAvatar(blurred);
    await env.DB.prepare("update profiles set blur = 1 where member_id = ?").bind(blurred.memberId).run();
    const graphic = await signUp(project);
    await call("POST", `/private/core/files/${project}/${graphic.memberId}`, { as: graphic, body: form(imageBytes(100, 100, () => [0, 0, 0]), "avatar") });
    const blocker = await signUp(project);
    await giveAvatar(blocker);
    await block(blocker, viewer);
    const blockedFlag = await signUp(project);
    await giveAvatar(blockedFlag);
    await env.DB.prepare("update profiles set blocked = 1 where member_id = ?").bind(blockedFlag.memberId).run();

    const paths = ["hot", "new", "last-access", "intro", "multi-gender/1", "zodiac-sign?sign=leo", "search?keyword=Good", "all"];
    for (const path of paths) {
      const codes = (expectOk(await call("GET", `/private/core/profiles/${project}/${path}`, { as: viewer })) as { simpleCode: string }[]).map((p) => p.simpleCode);
      expect(codes, path).toContain(good.memberNo);
      for (const hidden of [bare, blurred, graphic, blocker, blockedFlag]) expect(codes, path).not.toContain(hidden.memberNo);
    }
    // The public (logged-out) hot list is what the login page uses: an array of summaries.
    const hot = expectOk(await call("GET", `/public/core/profiles/${project}/hot?pageSize=30`));
    expect(Array.isArray(hot)).toBe(true);
    expect(hot[0]).toHaveProperty("avator");
    expect(hot.map((p: { simpleCode: string }) => p.simpleCode)).toContain(blocker.memberNo);
    // A locale that names no language (even one shaped like an object's own keys) orders nothing: the plain hot list.
    for (const locale of ["__proto__", "toString", "xx"]) {
      expect(expectOk(await call("GET", `/public/core/profiles/${project}/hot?pageSize=30&locale=${locale}`)), locale).toEqual(hot);
    }
    expectFailure(await call("GET", `/private/sns/related-profiles/${project}/language/__proto__/2`, { as: viewer }), 400);

    const related = expectOk(await call("GET", `/private/sns/related-profiles/${project}/language/ja-JP/2?pageSize=20`, { as: viewer }));
    expect(related.map((p: { simpleCode: string }) => p.simpleCode)).toEqual([good.memberNo]);
    expectOk(await patch(viewer, { lookFor: 1 }));
    const picks = expectOk(await call("GET", "/private/core/profiles/pick-for-you", { as: viewer }));
    expect(picks.map((p: { simpleCode: string }) => p.simpleCode)).toEqual([good.memberNo]);
    expect(expectOk(await call("GET", `/public/core/members/count/${project}`)).count).toBe(7);
    const today = new Date().toISOString().slice(5, 10);
    expectOk(await patch(good, { birthday: `1992-${today}` }));
    const birthdays = expectOk(await call("GET", `/private/core/profiles/${project}/birthday`, { as: viewer }));
    expect(birthdays.map((p: { simpleCode: string }) => p.simpleCode)).toEqual([good.memberNo]);
    const filtered = expectOk(await call("GET", `/public/core/profiles/${project}/all?lookFor=2`));
    expect(filtered).toEqual([]);
  });

  it("validates page sizes and parameters", async () => {
    expectFailure(await call("GET", "/public/core/profiles/SMP/hot?pageSize=0"), 400);
    expectFailure(await call("GET", "/public/core/profiles/SMP/hot?pageSize=501"), 400);
    expectFailure(await call("GET", "/public/core/profiles/SMPX/hot"), 400, "400001");
    expectFailure(await call("GET", "/public/core/profiles/SMP/search"), 400);
    expectFailure(await call("GET", "/public/core/profiles/SMP/multi-gender/9"), 400);
    expectFailure(await call("GET", "/public/core/profiles/SMP/zodiac-sign?sign=dragon"), 400);
    expectFailure(await call("GET", "/public/core/profiles/SMP/all?lookFor=7"), 400);
    expectFailure(await call("GET", "/public/sns/related-profiles/SMP/language/fr/2"), 400);
    expectFailure(await call("GET", "/private/core/profiles/pick-for-you"), 401);
    const abc = await signUp("ABC");
    expectFailure(await call("GET", "/private/core/profiles/SMP/hot", { as: abc }), 404);
  });
});
