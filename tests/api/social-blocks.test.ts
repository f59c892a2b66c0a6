import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { block, eventually, notificationRows, setBlockExpiry, verifiedMember } from "./social-support";

/** Every social surface between `viewer` and `other`: what the viewer can do to / see of the other. */
async function surfaces(viewer: Member, other: Member) {
  return {
    followInfo: (await call("GET", `/private/core/follows/${other.memberNo}`, { as: viewer })).status,
    follow: (await call("POST", `/private/core/follows/${other.memberNo}`, { as: viewer })).status,
    friendRequest: (await call("POST", "/private/core/friends/request", { as: viewer, body: { targetMemberNo: other.memberNo } })).status,
    friendStatus: (await call("GET", `/private/core/friends/status/${other.memberNo}`, { as: viewer })).status,
    favourite: (await call("POST", "/private/core/favourites", { as: viewer, body: { targetMemberNo: other.memberNo } })).status,
    leaveMessage: (await call("POST", "/private/core/leave-message", { as: viewer, body: { code: other.memberNo, text: "hello there" } })).status,
    guestbookReply: (await call("POST", `/private/core/guestbooks/${other.memberNo}`, { as: viewer, body: { message: "reply" } })).status,
    history: (await call("GET", `/private/core/guestbooks/history/${other.memberNo}`, { as: viewer })).status,
    actions: (await call("GET", `/private/core/actions/${other.memberNo}`, { as: viewer })).status,
    mute: (await call("POST", "/private/core/mutes", { as: viewer, body: { targetMemberNo: other.memberNo } })).status,
  };
}

const ALL_404 = { followInfo: 404, follow: 404, friendRequest: 404, friendStatus: 404, favourite: 404, leaveMessage: 404, guestbookReply: 404, history: 404, actions: 404, mute: 404 };

async function names(member: Member, path: string) {
  const info = expectOk(await call("GET", path, { as: member }));
  return info.items.map((i: any) => (i.profile ?? i.actor)?.simpleCode);
}

async function located(lat: number, lng: number) {
  const member = await verifiedMember();
  expectOk(await call("PUT", `/private/core/geolocation/${member.memberId}`, { as: member, body: { latitude: lat, longitude: lng } }));
  expectOk(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: member, body: { showPosition: true } }));
  return member;
}

describe("a block is total and two-way", () => {
  it("refuses every social action in both directions (404: the other's records do not exist)", async () => {
    const [a, b] = [await verifiedMember(), await verifiedMember()];
    const created = await block(a, b);
    expect(created).toMatchObject({ memberNo: b.memberNo, expiresAt: null, count: 1, indicators: 1 });
    expect(await surfaces(a, b)).toEqual(ALL_404);
    expect(await surfaces(b, a)).toEqual(ALL_404);
    expect(await env.DB.prepare("select count(*) as n from guestbook_entries where author_member_id in (?, ?)").bind(a.memberId, b.memberId).first("n")).toBe(0);
  });

  it("removes the pair's follows, favourites and friendship and hides them from lists", async () => {
    const [a, b, c] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    for (const [x, y] of [[a, b], [b, a], [a, c]] as const) expectOk(await call("POST", `/private/core/follows/${y.memberNo}`, { as: x }));
    expectOk(await call("POST", "/private/core/favourites", { as: a, body: { targetMemberNo: b.memberNo } }));
    expectOk(await call("POST", "/private/core/friends/request", { as: b, body: { targetMemberNo: a.memberNo } }));
    await block(b, a);
    expect(await names(a, `/private/core/following/${a.memberId}`)).toEqual([c.memberNo]);
    expect(await names(a, `/private/core/followers/${a.memberId}`)).toEqual([]);
    expect(await names(b, `/private/core/followers/${b.memberId}`)).toEqual([]);
    expect(await names(a, "/private/core/favourites")).toEqual([]);
    expect(await names(a, "/private/core/friends?status=incoming")).toEqual([]);
    // The blocker's list shows the block; the blocked member's does not.
    expect(await names(b, "/private/core/blocks")).toEqual([a.memberNo]);
    expect(await names(a, "/private/core/blocks")).toEqual([]);
  });

  it("hides blocked members' guestbook entries and notifications both ways, and stores no new ones", async () => {
    const [a, b] = [await verifiedMember(), await verifiedMember()];
    expectOk(await call("POST", "/private/core/leave-message", { as: a, body: { code: b.memberNo, text: "from a" } }));
    expectOk(await call("POST", "/private/core/leave-message", { as: b, body: { code: a.memberNo, text: "from b" } }));
    expectOk(await call("POST", `/private/core/follows/${b.memberNo}`, { as: a }));
    await eventually(() => notificationRows(b), (r) => r.length === 2);
    expect(await names(b, "/private/core/notifications")).toEqual([a.memberNo, a.memberNo]);
    const entry = expectOk(await call("GET", `/private/core/guestbooks/${b.memberId}`, { as: b })).items[0];

    const { idBlock } = await block(a, b);
    expect(await names(b, "/private/core/notifications")).toEqual([]);
    expect(expectOk(await call("GET", "/private/core/notifications/unread-count", { as: b })).count).toBe(0);
    expect(await names(b, `/private/core/guestbooks/${b.memberId}`)).toEqual([]);
    expect(await names(a, `/private/core/guestbooks/${a.memberId}`)).toEqual([]);
    expect(expectOk(await call("GET", `/private/core/guestbooks/counts/${b.memberId}`, { as: b }))).toEqual({ total: 0, unread: 0 });
    // An owner may still delete entries in their own guestbook while a block is live.
    expect((await call("DELETE", `/private/core/guestbooks/${entry.idGuestbook}`, { as: b })).status).toBe(200);

    // Unblocking brings back what was stored before the block.
    expectOk(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: a }));
    expect(await names(b, "/private/core/notifications")).toEqual([a.memberNo, a.memberNo]);
    expect(await names(a, `/private/core/guestbooks/${a.memberId}`)).toEqual([b.memberNo]);
  });

  it("keeps blocked pairs out of nearby, both directions", async () => {
    const a = await located(25.033, 121.565);
    const b = await located(25.04, 121.57);
    expect(await names(a, "/private/core/geolocation/SMP/nearby")).toContain(b.memberNo);
    await block(b, a);
    expect(await names(a, "/private/core/geolocation/SMP/nearby")).not.toContain(b.memberNo);
    expect(await names(b, "/private/core/geolocation/SMP/nearby")).not.toContain(a.memberNo);
  });

  it("hides the flame holder from a blocked member and refuses to pass the flame to them", async () => {
    const [holder, blocked] = [await signUpPoster(), await signUpPoster()];
    await env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values ('SMP', ?, ?)").bind(holder.memberId, Date.now()).run();
    await block(blocked, holder);
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: blocked })).memberNo).toBeNull();
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: holder, body: { targetMemberNo: blocked.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/flame/SMP/approve", { as: holder, body: { targetMemberNo: blocked.memberNo } }), 404);
  });

  it("shows the block count to the blocker but 404 to a member the target blocked", async () => {
    const [a, b, c] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    await block(a, b);
    expect(expectOk(await call("GET", `/private/core/blocks/count/${b.memberNo}`, { as: a }))).toMatchObject({ count: 1, indicators: 1 });
    expect(expectOk(await call("GET", `/private/core/blocks/count/${b.memberNo}`, { as: c })).count).toBe(1);
    expectFailure(await call("GET", `/private/core/blocks/count/${a.memberNo}`, { as: b }), 404);
    expect(expectOk(await call("GET", "/private/core/blocks/count", { as: a })).count).toBe(1);
  });
});

describe("timed blocks and mutes", () => {
  it("a 24 h block expires at its time and every surface opens again", async () => {
    const [a, b] = [await verifiedMember(), await verifiedMember()];
    const before = Date.now();
    const created = await block(a, b, "24h");
    const expiresAt = Date.parse(created.expiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(24 * 3_600_000 + 5000);
    expect(await surfaces(b, a)).toEqual(ALL_404);

    // Bring the expiry close, then let it pass inside the test.
    await setBlockExpiry(created.idBlock, Date.now() + 1200);
    expect((await call("GET", `/private/core/follows/${a.memberNo}`, { as: b })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1300));
    const open = await surfaces(b, a);
    expect(Object.values(open).every((s) => s === 200)).toBe(true);
    expect(await surfaces(a, b)).toMatchObject({ followInfo: 200, follow: 200, leaveMessage: 200, history: 200 });
    // The expired block no longer lists and no longer counts.
    expect(expectOk(await call("GET", "/private/core/blocks", { as: a })).items).toEqual([]);
    expect(expectOk(await call("GET", `/private/core/blocks/count/${b.memberNo}`, { as: a })).count).toBe(0);
  });

  it("accepts 7d, 30d and forever, and blocking again changes the duration", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const week = await block(a, b, "7d");
    expect(Date.parse(week.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const month = await block(a, b, "30d");
    expect(month.idBlock).toBe(week.idBlock);
    expect(Date.parse(month.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect((await block(a, b, "forever")).expiresAt).toBeNull();
    expectFailure(await call("POST", "/private/core/blocks", { as: a, body: { targetMemberNo: b.memberNo, duration: "1y" } }), 400);
  });

  it("a mute silently hides the muted member's guestbook entries and notifications from the muter only", async () => {
    const [a, b] = [await verifiedMember(), await verifiedMember()];
    const muted = expectOk(await call("POST", "/private/core/mutes", { as: a, body: { targetMemberNo: b.memberNo, duration: "24h" } }));
    expect(muted.expiresAt).toMatch(/Z$/);
    // b can still act; b cannot tell.
    expectOk(await call("POST", "/private/core/leave-message", { as: b, body: { code: a.memberNo, text: "can you hear me" } }));
    expectOk(await call("POST", `/private/core/follows/${a.memberNo}`, { as: b }));
    expect(expectOk(await call("GET", `/private/core/follows/${a.memberNo}`, { as: b })).following).toBe(true);
    const { relationshipTo } = await import("../../worker/features/members/relationship");
    expect((await relationshipTo(env, b.memberId, a.memberId)).muted).toBeNull();
    expect((await relationshipTo(env, a.memberId, b.memberId)).muted).not.toBeNull();
    // a sees nothing from b: no stored notification, no guestbook entry.
    await new Promise((r) => setTimeout(r, 200));
    expect(await notificationRows(a)).toEqual([]);
    expect(await names(a, `/private/core/guestbooks/${a.memberId}`)).toEqual([]);
    expect(await names(a, "/private/core/mutes")).toEqual([b.memberNo]);

    // When the mute lifts, what b wrote shows.
    await env.DB.prepare("update mutes set expires_at = ? where member_id = ?").bind(Date.now() - 1, a.memberId).run();
    expect(await names(a, `/private/core/guestbooks/${a.memberId}`)).toEqual([b.memberNo]);
    expect(await names(a, "/private/core/mutes")).toEqual([]);
    expectOk(await call("POST", "/private/core/mutes", { as: a, body: { targetMemberNo: b.memberNo } }));
    expectOk(await call("DELETE", `/private/core/mutes/${b.memberNo}`, { as: a }));
    expect(await names(a, `/private/core/guestbooks/${a.memberId}`)).toEqual([b.memberNo]);
  });

  it("the daily job deletes blocks and mutes that have expired", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const { idBlock } = await block(a, b, "24h");
    await setBlockExpiry(idBlock, Date.now() - 1);
    const { liftExpiredSafety } = await import("../../worker/features/social/safety-jobs");
    await liftExpiredSafety(env as unknown as Env, Date.now());
    expect(await env.DB.prepare("select count(*) as n from blocks where id_block = ?").bind(idBlock).first("n")).toBe(0);
  });
});

describe("blocks API rules", () => {
  it("only the blocker lifts a block; anonymous, other tenants and bad input are refused", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const other = await signUp("ABC");
    const { idBlock } = await block(a, b);
    expectFailure(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: b }), 404);
    expectFailure(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: other }), 404);
    expectFailure(await call("DELETE", `/private/core/blocks/${idBlock}`), 401);
    expectFailure(await call("GET", "/private/core/blocks"), 401);
    expectFailure(await call("POST", "/private/core/blocks", { as: other, body: { targetMemberNo: a.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/blocks", { as: a, body: { targetMemberNo: a.memberNo } }), 400, "400601");
    expectFailure(await call("POST", "/private/core/blocks", { as: a, body: {} }), 400);
    expectFailure(await call("DELETE", "/private/core/blocks/abc", { as: a }), 400);
    expect(await env.DB.prepare("select count(*) as n from blocks where member_id = ?").bind(a.memberId).first("n")).toBe(1);
    expectOk(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: a }));
    expectOk(await call("POST", `/private/core/follows/${a.memberNo}`, { as: b }));
  });

  it("§4: from the 10th block each blocker marks the avatar; only established members' marks take it down", async () => {
    const target = await signUpPoster();
    await env.DB.prepare("update profiles set qualify = 1 where member_id = ?").bind(target.memberId).run();
    for (let i = 0; i < 9; i++) await block(await signUpPoster(), target);
    const tenth = await block(await signUpPoster(), target);
    expect(tenth).toMatchObject({ count: 10, indicators: 10 });
    // Ten brand-new accounts: nothing (README Decisions "Moderation").
    expect(await env.DB.prepare("select qualify from profiles where member_id = ?").bind(target.memberId).first("qualify")).toBe(1);
    for (let i = 0; i < 5; i++) {
      const established = await verifiedMember();
      await env.DB.prepare("update members set created_at = ? where id = ?").bind(Date.now() - 30 * 86_400_000, established.memberId).run();
      await block(established, target);
    }
    expect(await env.DB.prepare("select qualify from profiles where member_id = ?").bind(target.memberId).first("qualify")).toBe(0);
  });
});

describe("reports and suspension (§8)", () => {
  it("reports from new accounts go to the queue and suspend nobody (tests/api/moderation.test.ts has the rest)", async () => {
    const target = await verifiedMember();
    const friend = await verifiedMember();
    const reporter = await signUpPoster();
    // Reporting twice counts once.
    expectOk(await call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: target.memberNo, reason: "spam" } }));
    expectOk(await call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: target.memberNo, reason: "spam" } }));
    for (let i = 0; i < 5; i++) expectOk(await call("POST", "/private/core/reports", { as: await signUpPoster(), body: { targetMemberNo: target.memberNo } }));
    expect(await env.DB.prepare("select count(*) as n from reports where target_member_id = ? and status = 'open'").bind(target.memberId).first("n")).toBe(6);
    expect(await env.DB.prepare("select status, suspended_until from members where id = ?").bind(target.memberId).first()).toEqual({ status: "active", suspended_until: null });
    expectOk(await call("POST", "/private/core/leave-message", { as: target, body: { code: friend.memberNo, text: "still here" } }));
    expect(await env.DB.prepare("select blocked from profiles where member_id = ?").bind(target.memberId).first("blocked")).toBe(0);
  });

  it("assertCanPost (one-to-one sends) passes active members and refuses suspended ones", async () => {
    const { assertCanPost } = await import("../../worker/features/members/posting-rules");
    const member = await signUpPoster();
    await expect(assertCanPost(env as unknown as Env, { memberId: member.memberId }, "send")).resolves.toBeUndefined();
    await env.DB.prepare("update members set status = 'suspended' where id = ?").bind(member.memberId).run();
    await expect(assertCanPost(env as unknown as Env, { memberId: member.memberId }, "send")).rejects.toMatchObject({ entry: { code: "403209" } });
  });

  it("refuses reports that are anonymous, of oneself, across tenants or malformed", async () => {
    const a = await signUpPoster();
    const other = await signUp("ABC");
    expectFailure(await call("POST", "/private/core/reports", { body: { targetMemberNo: a.memberNo } }), 401);
    expectFailure(await call("POST", "/private/core/reports", { as: a, body: { targetMemberNo: a.memberNo } }), 400);
    expectFailure(await call("POST", "/private/core/reports", { as: other, body: { targetMemberNo: a.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/reports", { as: a, body: { targetMemberNo: other.memberNo, reason: "x".repeat(501) } }), 400);
    expect(await env.DB.prepare("select count(*) as n from reports where target_member_id = ?").bind(a.memberId).first("n")).toBe(0);
  });
});


