import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { block, eventually, notificationRows } from "./social-support";

// README Decisions "Approve followers": follows of a member who approves followers become requests; members they
// have not accepted get exactly what a visitor gets of them.

const approval = (as: Member | null, of: Member, body?: unknown) =>
  call(body === undefined ? "GET" : "PUT", `/private/core/follow-approval/${of.memberId}`, { as, ...(body === undefined ? {} : { body }) });
const approveFollowers = async (m: Member) => expectOk(await approval(m, m, { approveFollowers: true }));
const follow = (as: Member, of: Member) => call("POST", `/private/core/follows/${of.memberNo}`, { as });
const requests = async (m: Member) => expectOk(await call("GET", "/private/core/follow-requests?pageSize=30", { as: m })).items.map((i: any) => i.profile.simpleCode);
const answer = (as: Member | null, memberNo: string, choice: "accept" | "decline") => call("POST", `/private/core/follow-requests/${memberNo}/${choice}`, { as });
const cancel = (as: Member | null, memberNo: string) => call("DELETE", `/private/core/follow-requests/${memberNo}`, { as });
const count = async (query: string, ...binds: unknown[]) => (await env.DB.prepare(query).bind(...binds).first<{ n: number }>())!.n;
const followRows = (from: Member, to: Member) => count("select count(*) as n from follows where member_id = ? and target_member_id = ?", from.memberId, to.memberId);
const requestRows = (from: Member, to: Member) => count("select count(*) as n from follow_requests where member_id = ? and target_member_id = ?", from.memberId, to.memberId);
const page = (as: Member | null, of: Member) => call("GET", `/${as ? "private" : "public"}/core/profiles/SMP/page/${of.memberNo}`, { as });
const view = (as: Member | null, of: Member) => call("GET", `/${as ? "private" : "public"}/core/profiles/SMP/member/${of.memberNo}`, { as });

describe("the approve-followers setting", () => {
  it("is read and written by its owner only; off by default; a bad body is a 400 envelope", async () => {
    const [me, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    expect(expectOk(await approval(me, me))).toEqual({ approveFollowers: false });
    expect(expectOk(await approval(me, me, { approveFollowers: true }))).toEqual({ approveFollowers: true });
    expect(expectOk(await approval(me, me))).toEqual({ approveFollowers: true });
    // Another member, another tenant and a visitor neither read nor change it.
    for (const viewer of [other, foreign]) {
      const denied = await approval(viewer, me);
      expect(denied.status).toBe(403);
      expect(JSON.stringify(denied.body)).not.toContain("approveFollowers");
      expectFailure(await approval(viewer, me, { approveFollowers: false }), 403);
    }
    expectFailure(await approval(null, me), 401);
    expectFailure(await approval(me, me, { approveFollowers: "yes" }), 400);
    expectFailure(await approval(me, me, { approveFollowers: true, extra: 1 }), 400);
    expect(expectOk(await approval(me, me))).toEqual({ approveFollowers: true });
  });
});

describe("a follow becomes a request", () => {
  it("creates a pending request: no follow row, a follow-request notice (not 'followed'), the heart says requested", async () => {
    const [me, fan] = [await signUp(), await signUp()];
    await approveFollowers(me);
    const info = expectOk(await follow(fan, me));
    expect(info).toMatchObject({ memberNo: me.memberNo, following: false, followStatus: "requested", followers: 0 });
    expect(await followRows(fan, me)).toBe(0);
    expect(await requestRows(fan, me)).toBe(1);
    // Asking again changes nothing and does not notify twice.
    expect(expectOk(await follow(fan, me)).followStatus).toBe("requested");
    const notices = await eventually(() => notificationRows(me), (rows) => rows.length > 0);
    expect(notices.map((n) => n.type)).toEqual(["followRequest"]);
    const listed = expectOk(await call("GET", "/private/core/notifications", { as: me })).items;
    expect(listed[0]).toMatchObject({ type: "followRequest", actorMemberNo: fan.memberNo, target: { kind: "profile", memberNo: fan.memberNo } });

    // Only the target lists it; the requester's own list is of requests to them (none).
    expect(await requests(me)).toEqual([fan.memberNo]);
    expect(await requests(fan)).toEqual([]);
    // The requester's relationship carries the pending request, so the profile's heart shows "Requested".
    expect(expectOk(await view(fan, me)).relationship).toMatchObject({ following: false, followRequested: true });
  });

  it("accepting turns the request into a follow; the follower then sees the full profile", async () => {
    const [me, fan] = [await signUpPoster(), await signUpPoster()];
    await approveFollowers(me);
    expectOk(await follow(fan, me));
    const accepted = expectOk(await answer(me, fan.memberNo, "accept"));
    expect(accepted).toMatchObject({ memberNo: fan.memberNo, followedBy: true, followStatus: "none" });
    expect(await followRows(fan, me)).toBe(1);
    expect(await requestRows(fan, me)).toBe(0);
    expect(expectOk(await call("GET", `/private/core/follows/${me.memberNo}`, { as: fan }))).toMatchObject({ following: true, followStatus: "following" });
    expect(await requests(me)).toEqual([]);
    // Accepted: a member's view again (page views, which visitors never get).
    expect(typeof expectOk(await view(fan, me)).pageViews).toBe("number");
    // Nothing left to accept.
    expectFailure(await answer(me, fan.memberNo, "accept"), 404, "404000");
  });

  it("declining is silent; the requester may ask again; the requester may withdraw", async () => {
    const [me, fan, other] = [await signUp(), await signUp(), await signUp()];
    await approveFollowers(me);
    expectOk(await follow(fan, me));
    const before = (await notificationRows(fan)).length;
    expect(expectOk(await answer(me, fan.memberNo, "decline"))).toMatchObject({ followedBy: false });
    expect(await requestRows(fan, me)).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect((await notificationRows(fan)).length).toBe(before);
    expect(expectOk(await call("GET", `/private/core/follows/${me.memberNo}`, { as: fan })).followStatus).toBe("none");
    expectFailure(await answer(me, fan.memberNo, "decline"), 404, "404000");

    // Asking again is a new request; the requester withdraws it (twice: 404), or the heart's second tap does.
    expect(expectOk(await follow(fan, me)).followStatus).toBe("requested");
    expect(expectOk(await cancel(fan, me.memberNo)).followStatus).toBe("none");
    expectFailure(await cancel(fan, me.memberNo), 404, "404000");
    expectOk(await follow(fan, me));
    expect(expectOk(await call("DELETE", `/private/core/follows/${me.memberNo}`, { as: fan })).followStatus).toBe("none");
    expect(await requests(me)).toEqual([]);

    // Only the target answers and only the requester withdraws: others get 404 and change nothing.
    expectOk(await follow(fan, me));
    expectFailure(await answer(other, fan.memberNo, "accept"), 404, "404000");
    expectFailure(await answer(fan, me.memberNo, "accept"), 404, "404000");
    expectFailure(await cancel(other, me.memberNo), 404, "404000");
    expectFailure(await cancel(me, fan.memberNo), 404, "404000");
    expectFailure(await answer(null, fan.memberNo, "accept"), 401);
    expect(await requestRows(fan, me)).toBe(1);
    expect(await followRows(fan, me)).toBe(0);
  });

  it("with approval off, a follow goes straight through; earlier followers stay; a removed follower must ask again", async () => {
    const [me, early, removed] = [await signUp(), await signUp(), await signUp()];
    expect(expectOk(await follow(early, me)).followStatus).toBe("following");
    expectOk(await follow(removed, me));
    await approveFollowers(me);
    expect(expectOk(await call("GET", `/private/core/follows/${me.memberNo}`, { as: early })).following).toBe(true);
    expectOk(await call("DELETE", `/private/core/followers/${removed.memberNo}`, { as: me }));
    expect(expectOk(await follow(removed, me)).followStatus).toBe("requested");
    expect(await followRows(removed, me)).toBe(0);
    // Turning approval off lets nobody in by itself; the pending request waits for an answer.
    expectOk(await approval(me, me, { approveFollowers: false }));
    expect(await requests(me)).toEqual([removed.memberNo]);
  });
});

describe("blocks and other tenants", () => {
  it("a block either way removes the pending request; a blocked member and another tenant are 404 everywhere", async () => {
    const [me, fan, fan2] = [await signUp(), await signUp(), await signUp()];
    const foreign = await signUp("ABC");
    await approveFollowers(me);
    expectOk(await follow(fan, me));
    expectOk(await follow(fan2, me));
    await block(me, fan);
    await block(fan2, me);
    expect(await requestRows(fan, me)).toBe(0);
    expect(await requestRows(fan2, me)).toBe(0);
    expect(await requests(me)).toEqual([]);
    expectFailure(await follow(fan, me), 404, "404000");
    expectFailure(await answer(me, fan.memberNo, "accept"), 404, "404000");
    expectFailure(await cancel(fan2, me.memberNo), 404, "404000");

    expectFailure(await follow(foreign, me), 404, "404000");
    expectFailure(await answer(me, foreign.memberNo, "accept"), 404, "404000");
    expectFailure(await answer(foreign, fan.memberNo, "decline"), 404, "404000");
    expectFailure(await cancel(foreign, me.memberNo), 404, "404000");
    expect(await count("select count(*) as n from follow_requests where target_member_id = ?", me.memberId)).toBe(0);
  });
});

describe("non-approved members see only what a visitor sees", () => {
  it("the profile, its page, photos, footprints and nearby equal a visitor's for a member not accepted", async () => {
    const [me, stranger, follower, footprint] = [await signUpPoster(), await signUpPoster(), await signUpPoster(), await signUp()];
    const nick = `Footprint${me.memberNo}`;
    expectOk(await call("PATCH", `/private/core/profiles/${footprint.memberId}`, { as: footprint, body: { nickname: nick } }));
    expectOk(await call("PATCH", `/private/core/profiles/${me.memberId}`, { as: me, body: { nickname: "Approver", introduction: "Approver's introduction, public.", showPosition: true } }));
    expectOk(await call("PUT", `/private/core/geolocation/${me.memberId}`, { as: me, body: { latitude: 35.6712345, longitude: 139.7612345 } }));
    for (const m of [stranger, follower]) expectOk(await call("PUT", `/private/core/geolocation/${m.memberId}`, { as: m, body: { latitude: 35.69, longitude: 139.74 } }));
    const upload = expectOk(await call("POST", `/private/core/files/SMP/${me.memberId}`, { as: me, body: await photoForm() }));
    expectOk(await call("POST", `/private/core/banners/${me.memberId}`, { as: me, body: { image: upload.url, pickable: true, width: upload.width, height: upload.height } }));
    expectOk(await follow(follower, me));
    expectOk(await page(footprint, me));
    await approveFollowers(me);

    // Members not accepted: the visitor's answer, field for field (their own relationship aside).
    const strip = (profile: Record<string, unknown>) => {
      const { relationship: _r, pageViews: _p, ...rest } = profile;
      return rest;
    };
    const visitorView = expectOk(await view(null, me));
    const strangerView = expectOk(await view(stranger, me));
    expect(strip(strangerView)).toEqual(strip(visitorView));
    expect(strangerView.pageViews).toBeNull();
    expect(strangerView).toMatchObject({ geohash: null, distanceKm: null, bearing: null, matchRate: null });
    const visitorPage = expectOk(await page(null, me));
    const strangerPage = expectOk(await page(stranger, me));
    expect(strip(strangerPage.profile)).toEqual(strip(visitorPage.profile));
    for (const part of ["characters", "actions", "footprints", "banners"] as const) expect(strangerPage[part], part).toEqual(visitorPage[part]);
    // The member's own card in the page's strips is the visitor's too (no original avatar).
    const cardOf = (pg: any) => [...pg.lists.hot, ...pg.lists.newbie, ...pg.lists.online, ...pg.lists.speech].filter((c: any) => c.simpleCode === me.memberNo);
    expect(cardOf(strangerPage)).toEqual(cardOf(visitorPage));
    expect(JSON.stringify(strangerPage)).not.toContain(nick);
    const original = expectOk(await view(me, me)).avator as string;
    expect(JSON.stringify(strangerPage)).not.toContain(original);
    expect(strangerPage.banners[0].image).not.toBe(upload.url);
    expect(expectOk(await call("GET", `/private/core/banners/users/${me.memberNo}`, { as: stranger }))).toEqual(expectOk(await call("GET", `/public/core/banners/users/${me.memberNo}?project=SMP`, { as: null })));
    expect(expectOk(await call("GET", `/private/sns/visitors/SMP/code/${me.memberNo}`, { as: stranger }))).toEqual([]);
    const nearby = (as: Member) => call("GET", "/private/core/geolocation/SMP/nearby?pageSize=50", { as });
    expect(expectOk(await nearby(stranger)).items.map((i: any) => i.profile.simpleCode)).not.toContain(me.memberNo);
    // No way around it: the photo's reveal, a rating's answer and the avatar's stranger reveal give no original.
    const idBanner = strangerPage.banners[0].idBanner as number;
    expectFailure(await call("POST", `/private/core/banners/${idBanner}/reveal`, { as: stranger }), 404);
    const rated = expectOk(await call("POST", "/private/sns/banner-ratings", { as: stranger, body: { idBanner, rating: 5 } }));
    expect(rated.image).not.toBe(upload.url);
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/${me.memberNo}`, { as: stranger }), 404);

    // An accepted follower (from before approval) keeps the member's view: the cell, page views, footprints, originals.
    const followerView = expectOk(await view(follower, me));
    expect(followerView.geohash).toHaveLength(6);
    expect(typeof followerView.pageViews).toBe("number");
    const followerPage = expectOk(await page(follower, me));
    expect(JSON.stringify(followerPage.footprints)).toContain(nick);
    expect(followerPage.banners[0].image).toBe(upload.url);
    expect(expectOk(await nearby(follower)).items.map((i: any) => i.profile.simpleCode)).toContain(me.memberNo);
    // The owner sees everything of themselves.
    expect(expectOk(await view(me, me)).latitude).toBe(35.6712345);
  });

  it("a closed member who approves followers gives a member not accepted the visitor's stub", async () => {
    const [me, friend] = [await signUpPoster(), await signUpPoster()];
    expectOk(await call("PATCH", `/private/core/profiles/${me.memberId}`, { as: me, body: { closed: true, introduction: "Closed and careful." } }));
    // The owner follows `friend` (the closed rule lets them in), but `friend` does not follow the owner.
    expectOk(await follow(me, friend));
    await approveFollowers(me);
    const stub = expectOk(await view(friend, me));
    const visitorStub = expectOk(await view(null, me));
    expect(stub.stub).toBe(true);
    const { relationship: _a, ...a } = stub;
    const { relationship: _b, ...b } = visitorStub;
    expect(a).toEqual(b);
  });
});

async function photoForm() {
  const { pngBytes } = await import("../support/route-matrix");
  const form = new FormData();
  form.set("type", "photo");
  form.set("file", new File([pngBytes() as BlobPart], "photo.png", { type: "image/png" }));
  return form;
}
