import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";

/**
 * Who sees my connections (README Decisions "Who sees my connections"): a member hides their followers, following,
 * friends and sub-member lists and counts from everyone but their friends, or from everyone. Checked as the member, a
 * friend, a non-friend member, a visitor, a blocked member and another tenant, on the raw text of every answer that
 * carried them: follow info, sub-members (private and public), hierarchy and its history, the activity chart.
 */

type Audience = "everyone" | "friends" | "nobody";
const settingPath = (m: Member) => `/private/core/connections-visibility/${m.memberId}`;
const setAudience = (as: Member, audience: unknown, of: Member = as) => call("PUT", settingPath(of), { as, body: { connectionsVisibility: audience } });
const storedRows = async (m: Member) => (await env.DB.prepare("select count(*) as n from connection_visibility where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n;

let owner: Member; // a master (multiGender 1) with a follower, someone they follow, a friend and a sub-member
let friend: Member;
let stranger: Member;
let blocked: Member;
let foreign: Member;
let fan: Member;
let followed: Member;
let sub: Member;
const subNick = `Hidden sub ${Date.now().toString(36)}`;

beforeAll(async () => {
  [owner, friend, stranger, blocked, fan, followed, sub] = [await signUp(), await signUp(), await signUp(), await signUp(), await signUp(), await signUp(), await signUp()];
  foreign = await signUp("ABC");
  await env.DB.prepare("update profiles set multi_gender = 1 where member_id = ?").bind(owner.memberId).run();
  expectOk(await call("PATCH", `/private/core/profiles/${sub.memberId}`, { as: sub, body: { nickname: subNick } }));
  expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: fan }));
  expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: owner }));
  expectOk(await call("POST", "/private/core/friends/request", { as: friend, body: { targetMemberNo: owner.memberNo } }));
  expectOk(await call("POST", "/private/core/friends/accept", { as: owner, body: { targetMemberNo: friend.memberNo } }));
  expectOk(await call("POST", "/private/sns/sub-members/SMP/join", { as: sub, body: { masterMemberNo: owner.memberNo } }));
  expectOk(await call("POST", "/private/core/blocks", { as: owner, body: { targetMemberNo: blocked.memberNo } }));
});

/** Everything another member can ask about the owner's connections, as raw text and parsed. */
async function seenBy(viewer: Member) {
  const follow = await call("GET", `/private/core/follows/${owner.memberNo}`, { as: viewer });
  const subs = await call("GET", `/private/sns/sub-members/SMP/${owner.memberNo}`, { as: viewer });
  const tree = await call("GET", `/private/sns/hierarchy/SMP/${owner.memberNo}`, { as: viewer });
  const history = await call("GET", `/private/sns/hierarchy/SMP/${owner.memberNo}/history`, { as: viewer });
  const actions = await call("GET", `/private/core/actions/${owner.memberNo}`, { as: viewer });
  const page = await call("GET", `/private/core/profiles/SMP/page/${owner.memberNo}`, { as: viewer });
  const text = [follow, subs, tree, history, actions, page].map((r) => JSON.stringify(r.body)).join("\n");
  return { follow, subs, tree, history, actions, page, text };
}

/** The sub-member's identity: the needle that must not leave in a hidden list. */
const leaksSub = (text: string) => text.includes(sub.memberNo) || text.includes(subNick);

function expectOpen(seen: Awaited<ReturnType<typeof seenBy>>) {
  const info = expectOk(seen.follow);
  expect(info).toMatchObject({ followers: 1, followingCount: 1 });
  expect(info.connectionsHidden).toBeUndefined();
  const list = expectOk(seen.subs);
  expect(list.subMembers.map((s: any) => s.profile.simpleCode)).toEqual([sub.memberNo]);
  expect(list.connectionsHidden).toBeUndefined();
  expect(expectOk(seen.tree).subNodes.map((n: any) => n.profile.simpleCode)).toEqual([sub.memberNo]);
  expect(expectOk(seen.actions).recent.some((a: any) => a.type === "follow")).toBe(true);
}

function expectHidden(seen: Awaited<ReturnType<typeof seenBy>>, viewer: Member) {
  const info = expectOk(seen.follow);
  // The counts are gone; the viewer's own edges stay (their heart still works).
  expect(info).toEqual({ memberNo: owner.memberNo, following: viewer === fan, followedBy: false, followStatus: viewer === fan ? "following" : "none", followers: null, followingCount: null, connectionsHidden: true });
  const list = expectOk(seen.subs);
  expect(list.subMembers).toEqual([]);
  expect(list.connectionsHidden).toBe(true);
  // The master's card and the viewer's own join options stay: the join button keeps working.
  expect(list.master.simpleCode).toBe(owner.memberNo);
  expect(list.viewer).toMatchObject({ isMaster: false });
  expectFailure(seen.tree, 403, "403621");
  expectFailure(seen.history, 403, "403621");
  expect(seen.tree.body.returnMessage).toBe("This member keeps their connections private");
  // Follows given would count the following list: the activity chart leaves them out.
  const actions = expectOk(seen.actions);
  expect(actions.recent.filter((a: any) => a.type === "follow")).toEqual([]);
  expect(actions.stats.reduce((n: number, s: any) => n + s.actionCount, 0)).toBe(0);
  expect(leaksSub(seen.text), "the hidden sub-member reached the viewer").toBe(false);
}

describe("who sees my connections: the setting", () => {
  it("is everyone by default, read and written by its owner only; everyone stores no row", async () => {
    const m = await signUp();
    expect(expectOk(await call("GET", settingPath(m), { as: m }))).toEqual({ connectionsVisibility: "everyone" });
    for (const audience of ["friends", "nobody", "everyone"] as Audience[]) {
      expect(expectOk(await setAudience(m, audience))).toEqual({ connectionsVisibility: audience });
      expect(expectOk(await call("GET", settingPath(m), { as: m }))).toEqual({ connectionsVisibility: audience });
    }
    expect(await storedRows(m)).toBe(0);
  });

  it("refuses another member (403), another tenant (403) and a visitor (401), and changes nothing", async () => {
    const m = await signUp();
    expectOk(await setAudience(m, "nobody"));
    for (const [as, status] of [[stranger, 403], [foreign, 403]] as const) {
      const read = expectFailure(await call("GET", settingPath(m), { as }), status);
      expect(JSON.stringify(read)).not.toContain("nobody");
      expectFailure(await setAudience(as, "everyone", m), status);
    }
    expectFailure(await call("GET", settingPath(m)), 401);
    expectFailure(await call("PUT", settingPath(m), { body: { connectionsVisibility: "everyone" } }), 401);
    expect(expectOk(await call("GET", settingPath(m), { as: m }))).toEqual({ connectionsVisibility: "nobody" });
  });

  it("answers bad input with a 400 envelope and keeps the stored value", async () => {
    const m = await signUp();
    expectOk(await setAudience(m, "friends"));
    for (const body of [{ connectionsVisibility: "followers" }, { connectionsVisibility: null }, {}, { connectionsVisibility: "nobody", extra: 1 }, "{"]) {
      expectFailure(await call("PUT", settingPath(m), { as: m, body }), 400);
    }
    expect(expectOk(await call("GET", settingPath(m), { as: m }))).toEqual({ connectionsVisibility: "friends" });
  });
});

describe("who sees my connections: what leaves the server", () => {
  it("everyone (the default): a friend and a non-friend member see the counts, the sub-members and the tree", async () => {
    expectOk(await setAudience(owner, "everyone"));
    expectOpen(await seenBy(friend));
    expectOpen(await seenBy(stranger));
    expect(expectOk(await call("GET", `/public/sns/sub-members/SMP/${owner.memberNo}`)).subMembers).toHaveLength(1);
  });

  it("friends: a friend still sees them; a non-friend member, a follower and a visitor get no list, no count, no sub-member", async () => {
    expectOk(await setAudience(owner, "friends"));
    expectOpen(await seenBy(friend));
    expectHidden(await seenBy(stranger), stranger);
    // Following the member does not let you in: only accepted friends.
    expectHidden(await seenBy(fan), fan);
    // A visitor: the public sub-member list is empty and says why; the join button (a login link) stays.
    const visitor = await call("GET", `/public/sns/sub-members/SMP/${owner.memberNo}`);
    expect(expectOk(visitor)).toMatchObject({ subMembers: [], connectionsHidden: true, viewer: null });
    expect(leaksSub(JSON.stringify(visitor.body))).toBe(false);
  });

  it("nobody: even a friend sees nothing; the owner always sees their own", async () => {
    expectOk(await setAudience(owner, "nobody"));
    expectHidden(await seenBy(friend), friend);
    expectHidden(await seenBy(stranger), stranger);
    const own = await seenBy(owner);
    expect(expectOk(own.subs).subMembers.map((s: any) => s.profile.simpleCode)).toEqual([sub.memberNo]);
    expect(expectOk(own.subs).connectionsHidden).toBeUndefined();
    expect(expectOk(own.tree).subNodes).toHaveLength(1);
    expect(expectOk(own.actions).recent.some((a: any) => a.type === "follow")).toBe(true);
    expect(expectOk(await call("GET", `/private/core/followers/${owner.memberId}`, { as: owner })).items.map((i: any) => i.profile.simpleCode)).toEqual([fan.memberNo]);
    expect(expectOk(await call("GET", `/private/core/following/${owner.memberId}`, { as: owner })).items.map((i: any) => i.profile.simpleCode)).toEqual([followed.memberNo]);
    expect(expectOk(await call("GET", "/private/core/friends", { as: owner })).items.map((i: any) => i.profile.simpleCode)).toEqual([friend.memberNo]);
  });

  it("the owner's own lists stay theirs: another member asking for them by the owner's id is 403 with nothing in it", async () => {
    expectOk(await setAudience(owner, "nobody"));
    for (const list of ["followers", "following"]) {
      const reply = await call("GET", `/private/core/${list}/${owner.memberId}`, { as: friend });
      expectFailure(reply, 403);
      expect(JSON.stringify(reply.body)).not.toContain(fan.memberNo);
    }
  });

  it("a blocked member and another tenant get not found whatever the setting; a visitor gets no private answer", async () => {
    for (const audience of ["everyone", "nobody"] as Audience[]) {
      expectOk(await setAudience(owner, audience));
      for (const viewer of [blocked, foreign]) {
        const seen = await seenBy(viewer);
        for (const reply of [seen.follow, seen.subs, seen.tree, seen.history, seen.actions, seen.page]) expectFailure(reply, 404);
        expect(leaksSub(seen.text)).toBe(false);
      }
      expectFailure(await call("GET", `/private/core/follows/${owner.memberNo}`), 401);
      expectFailure(await call("GET", `/private/sns/hierarchy/SMP/${owner.memberNo}`), 401);
    }
    // Another tenant's public door: the tenant's own lookup answers not found.
    expectFailure(await call("GET", `/public/sns/sub-members/ABC/${owner.memberNo}`), 404);
  });

  it("back to everyone: the lists come back at once (the stored row is gone)", async () => {
    expectOk(await setAudience(owner, "nobody"));
    expectOk(await setAudience(owner, "everyone"));
    expect(await storedRows(owner)).toBe(0);
    expectOpen(await seenBy(stranger));
  });

  it("an ex-friend loses them the moment the friendship ends", async () => {
    expectOk(await setAudience(owner, "friends"));
    expectOpen(await seenBy(friend));
    expectOk(await call("DELETE", `/private/core/friends/${owner.memberNo}`, { as: friend }));
    expectHidden(await seenBy(friend), friend);
    // Friends again for the other cases of this file.
    expectOk(await call("POST", "/private/core/friends/request", { as: friend, body: { targetMemberNo: owner.memberNo } }));
    expectOk(await call("POST", "/private/core/friends/accept", { as: owner, body: { targetMemberNo: friend.memberNo } }));
    expectOpen(await seenBy(friend));
  });
});

describe("hidden connections inside someone else's hierarchy tree", () => {
  it("stops the tree below and above a member who hides them, while their own place in an open list stays", async () => {
    const [top, middle, bottom, viewer] = [await signUp(), await signUp(), await signUp(), await signUp()];
    for (const m of [top, middle]) await env.DB.prepare("update profiles set multi_gender = 1 where member_id = ?").bind(m.memberId).run();
    expectOk(await call("POST", "/private/sns/sub-members/SMP/join", { as: middle, body: { masterMemberNo: top.memberNo } }));
    expectOk(await call("POST", "/private/sns/sub-members/SMP/join", { as: bottom, body: { masterMemberNo: middle.memberNo } }));
    expectOk(await setAudience(middle, "nobody"));
    // From the top: the middle member is the top's sub-member (the top's list is open), the bottom one is not shown.
    const down = JSON.stringify(expectOk(await call("GET", `/private/sns/hierarchy/SMP/${top.memberNo}`, { as: viewer })));
    expect(down).toContain(middle.memberNo);
    expect(down).not.toContain(bottom.memberNo);
    // From the bottom: the middle member is the bottom's master (the bottom's connections are open); not the top.
    const up = JSON.stringify(expectOk(await call("GET", `/private/sns/hierarchy/SMP/${bottom.memberNo}`, { as: viewer })));
    expect(up).toContain(middle.memberNo);
    expect(up).not.toContain(top.memberNo);
    // The middle member sees their own tree whole.
    const own = JSON.stringify(expectOk(await call("GET", `/private/sns/hierarchy/SMP/${top.memberNo}`, { as: middle })));
    expect(own).toContain(bottom.memberNo);
  });
});
