import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp } from "../support/client";
import { eventually, notificationRows } from "./social-support";

describe("follow", () => {
  it("follows and unfollows by member code, notifies, and lists both sides", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const followed = expectOk(await call("POST", `/private/core/follows/${b.memberNo}`, { as: a }));
    expect(followed).toMatchObject({ memberNo: b.memberNo, following: true, followedBy: false, followers: 1 });
    // Following twice is idempotent.
    expect(expectOk(await call("POST", `/private/core/follows/${b.memberNo}`, { as: a })).followers).toBe(1);
    expect(expectOk(await call("GET", `/private/core/follows/${a.memberNo}`, { as: b }))).toMatchObject({ following: false, followedBy: true });

    const following = expectOk(await call("GET", `/private/core/following/${a.memberId}`, { as: a }));
    expect(following.items.map((i: any) => i.profile.simpleCode)).toEqual([b.memberNo]);
    const followers = expectOk(await call("GET", `/private/core/followers/${b.memberId}`, { as: b }));
    expect(followers.items.map((i: any) => i.profile.simpleCode)).toEqual([a.memberNo]);
    expect(followers.items[0].dateAdd).toMatch(/Z$/);

    const notes = await eventually(() => notificationRows(b, "follow"), (r) => r.length > 0);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.actor_member_id).toBe(a.memberId);

    expect(expectOk(await call("DELETE", `/private/core/follows/${b.memberNo}`, { as: a }))).toMatchObject({ following: false, followers: 0 });
    expect(expectOk(await call("GET", `/private/core/following/${a.memberId}`, { as: a })).items).toEqual([]);
  });

  it("pages the following list by cursor", async () => {
    const a = await signUp();
    const others = [await signUp(), await signUp(), await signUp()];
    for (const o of others) expectOk(await call("POST", `/private/core/follows/${o.memberNo}`, { as: a }));
    const first = expectOk(await call("GET", `/private/core/following/${a.memberId}?pageSize=2`, { as: a }));
    expect(first.items.map((i: any) => i.profile.simpleCode)).toEqual([others[2]!.memberNo, others[1]!.memberNo]);
    const second = expectOk(await call("GET", `/private/core/following/${a.memberId}?pageSize=2&before=${first.next}`, { as: a }));
    expect(second.items.map((i: any) => i.profile.simpleCode)).toEqual([others[0]!.memberNo]);
    expect(second.next).toBeNull();
  });

  it("refuses anonymous, other members' lists, other tenants, self and bad input", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const other = await signUp("ABC");
    expectFailure(await call("POST", `/private/core/follows/${b.memberNo}`), 401);
    expectFailure(await call("GET", `/private/core/following/${a.memberId}`, { as: b }), 403);
    expectFailure(await call("GET", `/private/core/followers/${a.memberId}`, { as: other }), 403);
    // Another tenant's member code does not exist for me.
    expectFailure(await call("POST", `/private/core/follows/${other.memberNo}`, { as: a }), 404);
    expectFailure(await call("GET", `/private/core/follows/${a.memberNo}`, { as: other }), 404);
    expectFailure(await call("POST", `/private/core/follows/${a.memberNo}`, { as: a }), 400, "400601");
    expectFailure(await call("POST", `/private/core/follows/not-a-code`, { as: a }), 400, "400000");
    expectFailure(await call("GET", `/private/core/following/${a.memberId}?pageSize=0`, { as: a }), 400);
    const rows = await env.DB.prepare("select count(*) as n from follows where member_id = ?").bind(a.memberId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("friends state machine", () => {
  it("request → incoming → accept → friends; only the addressee accepts", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expect(expectOk(await call("POST", "/private/core/friends/request", { as: a, body: { targetMemberNo: b.memberNo } })).friendStatus).toBe("requested");
    expect(expectOk(await call("GET", `/private/core/friends/status/${a.memberNo}`, { as: b })).friendStatus).toBe("incoming");
    // The requester cannot accept or reject their own request.
    expectFailure(await call("POST", "/private/core/friends/accept", { as: a, body: { targetMemberNo: b.memberNo } }), 409, "409601");
    expectFailure(await call("POST", "/private/core/friends/reject", { as: a, body: { targetMemberNo: b.memberNo } }), 409, "409601");
    expect(expectOk(await call("GET", "/private/core/friends?status=incoming", { as: b })).items.map((i: any) => i.profile.simpleCode)).toEqual([a.memberNo]);
    expect(expectOk(await call("GET", "/private/core/friends?status=requested", { as: a })).items.map((i: any) => i.profile.simpleCode)).toEqual([b.memberNo]);

    await eventually(() => notificationRows(b, "friendRequest"), (r) => r.length === 1);
    expect(expectOk(await call("POST", "/private/core/friends/accept", { as: b, body: { targetMemberNo: a.memberNo } })).friendStatus).toBe("friends");
    expect(expectOk(await call("GET", `/private/core/friends/status/${b.memberNo}`, { as: a })).friendStatus).toBe("friends");
    expect(expectOk(await call("GET", "/private/core/friends", { as: a })).items.map((i: any) => i.profile.simpleCode)).toEqual([b.memberNo]);
    expect(expectOk(await call("GET", "/private/core/friends", { as: b })).items.map((i: any) => i.profile.simpleCode)).toEqual([a.memberNo]);
    const accepted = await eventually(() => notificationRows(a, "friendAccepted"), (r) => r.length === 1);
    expect(accepted[0]!.actor_member_id).toBe(b.memberId);
    // Accepting again: nothing pending.
    expectFailure(await call("POST", "/private/core/friends/accept", { as: b, body: { targetMemberNo: a.memberNo } }), 409);
    // Either side may end it.
    expect(expectOk(await call("DELETE", `/private/core/friends/${a.memberNo}`, { as: b })).friendStatus).toBe("none");
    expect(expectOk(await call("GET", `/private/core/friends/status/${b.memberNo}`, { as: a })).friendStatus).toBe("none");
  });

  it("reject returns both to none and the requester may ask again; crossing requests become friends", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expectOk(await call("POST", "/private/core/friends/request", { as: a, body: { targetMemberNo: b.memberNo } }));
    expect(expectOk(await call("POST", "/private/core/friends/reject", { as: b, body: { targetMemberNo: a.memberNo } })).friendStatus).toBe("none");
    expect(expectOk(await call("GET", `/private/core/friends/status/${b.memberNo}`, { as: a })).friendStatus).toBe("none");
    expectOk(await call("POST", "/private/core/friends/request", { as: a, body: { targetMemberNo: b.memberNo } }));
    expect(expectOk(await call("POST", "/private/core/friends/request", { as: b, body: { targetMemberNo: a.memberNo } })).friendStatus).toBe("friends");
  });

  it("refuses anonymous, other tenants, self and bad input without changes", async () => {
    const a = await signUp();
    const other = await signUp("ABC");
    expectFailure(await call("POST", "/private/core/friends/request", { body: { targetMemberNo: a.memberNo } }), 401);
    expectFailure(await call("POST", "/private/core/friends/request", { as: other, body: { targetMemberNo: a.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/friends/request", { as: a, body: { targetMemberNo: a.memberNo } }), 400);
    for (const body of [{}, { targetMemberNo: "" }, { targetMemberNo: 12 }, { targetMemberNo: "x".repeat(40) }]) {
      expectFailure(await call("POST", "/private/core/friends/request", { as: a, body }), 400, "400000");
    }
    expectFailure(await call("GET", "/private/core/friends?status=enemies", { as: a }), 400);
    const rows = await env.DB.prepare("select count(*) as n from friendships where requester_id = ?").bind(a.memberId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("favourites", () => {
  it("adds, lists and removes; other tenants are 404", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const other = await signUp("ABC");
    expectOk(await call("POST", "/private/core/favourites", { as: a, body: { targetMemberNo: b.memberNo } }));
    expect(expectOk(await call("GET", "/private/core/favourites", { as: a })).items.map((i: any) => i.profile.simpleCode)).toEqual([b.memberNo]);
    expect(expectOk(await call("GET", "/private/core/favourites", { as: b })).items).toEqual([]);
    expectFailure(await call("POST", "/private/core/favourites", { as: other, body: { targetMemberNo: b.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/favourites", { as: null, body: { targetMemberNo: b.memberNo } }), 401);
    expectFailure(await call("POST", "/private/core/favourites", { as: a, body: { target: b.memberNo } }), 400);
    expectOk(await call("DELETE", `/private/core/favourites/${b.memberNo}`, { as: a }));
    expect(expectOk(await call("GET", "/private/core/favourites", { as: a })).items).toEqual([]);
  });
});

describe("relationship", () => {
  it("relationshipTo reports following, followedBy, favourite and friend status in one answer", async () => {
    const { relationshipTo } = await import("../../worker/features/members/relationship");
    const [a, b] = [await signUp(), await signUp()];
    expectOk(await call("POST", `/private/core/follows/${b.memberNo}`, { as: a }));
    expectOk(await call("POST", `/private/core/follows/${a.memberNo}`, { as: b }));
    expectOk(await call("POST", "/private/core/favourites", { as: a, body: { targetMemberNo: b.memberNo } }));
    expectOk(await call("POST", "/private/core/friends/request", { as: b, body: { targetMemberNo: a.memberNo } }));
    expect(await relationshipTo(env, a.memberId, b.memberId)).toEqual({
      following: true,
      followedBy: true,
      favourite: true,
      friendStatus: "incoming",
      blocking: null,
      blockedBy: false,
      muted: null,
      followRequested: false,
    });
    expect(await relationshipTo(env, b.memberId, a.memberId)).toMatchObject({ following: true, followedBy: true, favourite: false, friendStatus: "requested" });
  });
});
