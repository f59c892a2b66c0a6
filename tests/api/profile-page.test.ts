import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { giveAvatar } from "./profiles-helpers";

const page = (project: string, code: string, as: Member | null = null) =>
  call("GET", `/${as ? "private" : "public"}/core/profiles/${project}/page/${code}`, { as });
const block = (from: Member, to: Member) =>
  env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)").bind(from.projectCode, from.memberId, to.memberId, Date.now()).run();

describe("GET /core/profiles/{project}/page/{simpleCode}: the public profile page in one call", () => {
  it("answers what the single calls answer, and records the member's visit", async () => {
    const host = await signUp();
    const viewer = await signUp();
    await giveAvatar(host);
    await giveAvatar(viewer);
    expectOk(await call("PATCH", `/private/core/profiles/${host.memberId}`, { as: host, body: { nickname: "Page Host", introduction: "hello there, a long enough intro" } }));
    // Footprints hide visitors without a nickname (§5).
    expectOk(await call("PATCH", `/private/core/profiles/${viewer.memberId}`, { as: viewer, body: { nickname: "Page Viewer" } }));
    expectOk(await call("POST", `/private/sns/characters/${host.memberId}`, { as: host, body: { idCharacter: 1 } }));
    expectOk(await call("POST", `/private/sns/characters/${viewer.memberId}`, { as: viewer, body: { idCharacter: 1 } }));

    const info = expectOk(await page("SMP", host.memberNo, viewer));
    // The page is a pure read (a replica serves it); the visit is recorded after the response, so the visitor's
    // own footprint shows from their next read on (README Decisions "D1 read replicas through sessions").
    expect(info.footprints.map((f: { simpleCode: string }) => f.simpleCode)).not.toContain(viewer.memberNo);
    expect(expectOk(await page("SMP", host.memberNo, viewer)).footprints.map((f: { simpleCode: string }) => f.simpleCode)).toContain(viewer.memberNo);
    const single = expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: viewer }));
    expect(info.profile).toMatchObject({ simpleCode: host.memberNo, nickname: "Page Host", relationship: single.relationship, matchRate: single.matchRate });
    expect(info.profile.matchRate).toBeGreaterThan(0);
    for (const key of ["phone", "mobile", "defaultAddress", "safeword", "emailHash", "memberId"]) expect(info.profile, key).not.toHaveProperty(key);
    expect(info.characters).toEqual(expectOk(await call("GET", `/private/sns/characters/SMP?memberNo=${host.memberNo}`, { as: viewer })));
    expect(info.actions).toHaveLength(24);
    expect(info.actions).toEqual(expectOk(await call("GET", `/private/sns/actions/SMP/${host.memberNo}`, { as: viewer })));
    expect(info.banners).toEqual(expectOk(await call("GET", `/private/core/banners/users/${host.memberNo}`, { as: viewer })));
    for (const list of ["hot", "newbie", "online", "speech"]) expect(Array.isArray(info.lists[list]), list).toBe(true);
    // The visit is recorded: the viewer is the host's newest footprint, and the next page shows it.
    const footprints = expectOk(await call("GET", `/private/sns/visitors/${host.memberId}`, { as: host }));
    expect(footprints[0].simpleCode).toBe(viewer.memberNo);
    const again = expectOk(await page("SMP", host.memberNo, host));
    expect(again.footprints.map((f: { simpleCode: string }) => f.simpleCode)).toContain(viewer.memberNo);
    expect(again.profile).toHaveProperty("safeword");
  });

  it("serves visitors without a session, counting a page view and no footprint", async () => {
    const host = await signUp();
    const before = await env.DB.prepare("select page_views as n from profiles where member_id = ?").bind(host.memberId).first<{ n: number }>();
    const info = expectOk(await page("smp", host.memberNo));
    expect(info.profile.simpleCode).toBe(host.memberNo);
    expect(info.profile.relationship.following).toBe(false);
    const after = await env.DB.prepare("select page_views as n from profiles where member_id = ?").bind(host.memberId).first<{ n: number }>();
    expect(after!.n).toBe(before!.n + 1);
    expect((await env.DB.prepare("select count(*) as n from visitors where member_id = ?").bind(host.memberId).first<{ n: number }>())!.n).toBe(0);
  });

  it("is not found for an unknown code, another tenant's member, or a blocked pair either way", async () => {
    const host = await signUp();
    const other = await signUp("OTH");
    const blocker = await signUp();
    const blocked = await signUp();
    expectFailure(await page("SMP", "99999999999"), 404);
    expectFailure(await page("SMP", other.memberNo), 404);
    expectFailure(await page("SMP", other.memberNo, host), 404);
    // A member of another tenant asking for this tenant's page through their session: not found, nothing recorded.
    expectFailure(await page("SMP", host.memberNo, other), 404);
    expect((await env.DB.prepare("select count(*) as n from visitors where member_id = ?").bind(host.memberId).first<{ n: number }>())!.n).toBe(0);
    await block(blocker, blocked);
    expectFailure(await page("SMP", blocked.memberNo, blocker), 404);
    expectFailure(await page("SMP", blocker.memberNo, blocked), 404);
    expect((await env.DB.prepare("select count(*) as n from visitors where member_id = ?").bind(blocker.memberId).first<{ n: number }>())!.n).toBe(0);
  });

  it("refuses a malformed code and a bad project with a 4xx envelope", async () => {
    expectFailure(await page("SMP", "abc"), 400);
    expect((await page("TOOLONG", "12345678")).status).toBeGreaterThanOrEqual(400);
  });
});

describe("GET /core/profiles/{project}/feed: the profiles feed in one call", () => {
  it("answers the hot list, birthdays and photos as the single calls do, for members and visitors", async () => {
    const viewer = await signUp();
    await giveAvatar(viewer);
    const feed = expectOk(await call("GET", "/private/core/profiles/SMP/feed", { as: viewer }));
    expect(feed.hot).toEqual(expectOk(await call("GET", "/private/core/profiles/SMP/hot?pageSize=500", { as: viewer })));
    expect(feed.birthdays).toEqual(expectOk(await call("GET", "/private/core/profiles/SMP/birthday?pageSize=20", { as: viewer })));
    expect(feed.banners).toEqual(expectOk(await call("GET", "/private/core/banners/SMP?pageSize=24", { as: viewer })));
    const visitor = expectOk(await call("GET", "/public/core/profiles/smp/feed"));
    expect(visitor.hot).toEqual(expectOk(await call("GET", "/public/core/profiles/SMP/hot?pageSize=500")));
    expect(visitor.banners).toEqual(expectOk(await call("GET", "/public/core/banners/SMP?pageSize=24")));
  });

  it("hides a blocked member from the feed and refuses another tenant's session", async () => {
    const viewer = await signUp();
    const foreign = await signUp("OTH");
    expectFailure(await call("GET", "/private/core/profiles/SMP/feed", { as: foreign }), 404);
    const hot = expectOk(await call("GET", "/public/core/profiles/SMP/feed")).hot;
    if (hot.length === 0) return;
    const target = await env.DB.prepare("select member_id as id from profiles where simple_code = ? and project_code = 'SMP'").bind(hot[0].simpleCode).first<{ id: string }>();
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(viewer.memberId, target!.id, Date.now()).run();
    const mine = expectOk(await call("GET", "/private/core/profiles/SMP/feed", { as: viewer }));
    expect(mine.hot.map((p: { simpleCode: string }) => p.simpleCode)).not.toContain(hot[0].simpleCode);
  });
});
