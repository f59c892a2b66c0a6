import { env } from "cloudflare:test";
import { describe, expect, it, } from "vitest";
import { directChatroomId } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, signUp, withAvatar, type Member } from "../support/client";
import { recordPushes } from "../support/push-service";
import { openSocket, type TestSocket } from "../support/socket";

/**
 * Requests tray controls (README Decisions "Filters for requests and notifications"): decline, decline and block,
 * decline everything from a member; filters by account age, avatar and following, for the tray and for
 * notifications. Each is tried as the member, the affected member (the sender), a visitor and another tenant, and
 * checked on what leaves the server: bodies, counts, socket frames and web pushes.
 */

let seq = 0;
const rid = () => `rf-${Date.now().toString(36)}-${++seq}`;
const DAY = 86_400_000;
const FILTERS = "/private/sns/requests-filters";
const ALL_OFF = { newerThanDays: 0, noAvatar: false, notFollowed: false, inRequests: true, inNotifications: true };

const setFilters = (as: Member, body: Record<string, unknown>) => call("PUT", FILTERS, { as, body: { ...ALL_OFF, ...body } });
const write = (from: Member, to: Member, message = "hello, we have not met") =>
  call("POST", `/private/sns/chatrooms/${directChatroomId(from.memberNo, to.memberNo)}/messages/${from.memberId}`, { as: from, body: { requestId: rid(), message } });
const tray = async (as: Member) => expectOk(await call("GET", "/private/sns/message-requests", { as })) as { idRequest: number; profile: { simpleCode: string } }[];
const filteredTray = async (as: Member) => expectOk(await call("GET", "/private/sns/message-requests/filtered", { as })) as { idRequest: number; profile: { simpleCode: string } }[];
const notices = async (as: Member) => expectOk(await call("GET", "/private/core/notifications", { as })).items as { type: string; actorMemberNo: string | null }[];
const filteredNotices = async (as: Member) => expectOk(await call("GET", "/private/core/notifications/filtered", { as })).items as { type: string; actorMemberNo: string | null }[];
const follow = (actor: Member, target: Member) => call("POST", `/private/core/follows/${target.memberNo}`, { as: actor });
const settle = () => new Promise((r) => setTimeout(r, 400));
/** An account this many days old (sign-up stamps now; the age filter reads members.created_at). */
const ageAccount = (m: Member, days: number) => env.DB.prepare("update members set created_at = ? where id = ?").bind(Date.now() - days * DAY, m.memberId).run();

/** A recipient who only takes messages from friends, so everyone else's first message is a request. */
async function recipient() {
  const m = await signUp();
  expectOk(await call("PUT", "/private/sns/chat-settings", { as: m, body: { acceptFrom: "friends" } }));
  return m;
}

// ── a local push service (as in web-push.test.ts): every fetch to https://push.test is recorded, not sent ──
const pushes = recordPushes();

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** Registers a real browser key pair for `m`'s session; answers the endpoint pushes to this device go to. */
async function device(m: Member) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const endpoint = `https://push.test/send/${crypto.randomUUID()}`;
  const subscription = { endpoint, keys: { p256dh: b64url(publicRaw), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) } };
  expectOk(await call("PUT", `/private/sns/notifications/source/${m.memberId}`, { as: m, body: { sourceKey: endpoint, subscription } }));
  return endpoint;
}
async function pushesTo(endpoint: string, expected: number, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && pushes.urls.filter((url) => url === endpoint).length < expected) await new Promise((r) => setTimeout(r, 25));
  return pushes.urls.filter((url) => url === endpoint).length;
}

describe("the filters: the owner's alone", () => {
  it("reads defaults, stores a change, and refuses bad input with a 400 envelope changing nothing", async () => {
    const me = await signUp();
    expect(expectOk(await call("GET", FILTERS, { as: me }))).toEqual(ALL_OFF);
    const saved = expectOk(await setFilters(me, { newerThanDays: 7, noAvatar: true, inNotifications: false }));
    expect(saved).toEqual({ ...ALL_OFF, newerThanDays: 7, noAvatar: true, inNotifications: false });
    for (const bad of [
      { ...ALL_OFF, newerThanDays: -1 },
      { ...ALL_OFF, newerThanDays: 1.5 },
      { ...ALL_OFF, newerThanDays: 366 },
      { ...ALL_OFF, noAvatar: "yes" },
      { ...ALL_OFF, memberId: "someone-else" },
      { newerThanDays: 3 },
    ]) {
      const reply = await call("PUT", FILTERS, { as: me, body: bad });
      expectFailure(reply, 400);
    }
    expect(expectOk(await call("GET", FILTERS, { as: me }))).toEqual(saved);
  });

  it("another member, another tenant and a visitor never see or change mine", async () => {
    const [me, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    expectOk(await setFilters(me, { newerThanDays: 30, notFollowed: true }));
    // Each caller reaches only their own row: the same path answers their own defaults.
    expect(expectOk(await call("GET", FILTERS, { as: other }))).toEqual(ALL_OFF);
    expect(expectOk(await call("GET", FILTERS, { as: foreign }))).toEqual(ALL_OFF);
    expectOk(await setFilters(other, { noAvatar: true }));
    expectFailure(await call("GET", FILTERS, { as: null }), 401);
    expectFailure(await call("PUT", FILTERS, { as: null, body: ALL_OFF }), 401);
    expect(expectOk(await call("GET", FILTERS, { as: me }))).toEqual({ ...ALL_OFF, newerThanDays: 30, notFollowed: true });
    expectFailure(await call("GET", "/private/sns/message-requests/filtered", { as: null }), 401);
    expectFailure(await call("GET", "/private/core/notifications/filtered", { as: null }), 401);
  });
});

describe("the requests tray with filters", () => {
  it("puts a filtered sender's request in Filtered, uncounted; an unfiltered one stays in the tray", async () => {
    const me = await recipient();
    const [bare, pictured] = [await signUp(), await withAvatar(await signUp())];
    expectOk(await setFilters(me, { noAvatar: true }));
    expectOk(await write(bare, me));
    expectOk(await write(pictured, me));
    expect((await tray(me)).map((r) => r.profile.simpleCode)).toEqual([pictured.memberNo]);
    expect((await filteredTray(me)).map((r) => r.profile.simpleCode)).toEqual([bare.memberNo]);
    expect(expectOk(await call("GET", "/private/sns/chatroom/unread-counts", { as: me })).requests).toBe(1);

    // The filter applies only where the owner says: off for requests, the request is back in the tray.
    expectOk(await setFilters(me, { noAvatar: true, inRequests: false }));
    expect((await tray(me)).map((r) => r.profile.simpleCode).sort()).toEqual([bare.memberNo, pictured.memberNo].sort());
    expect(await filteredTray(me)).toEqual([]);
  });

  it("filters accounts younger than N days, and members I do not follow until I follow them", async () => {
    const me = await recipient();
    const [fresh, old, stranger] = [await withAvatar(await signUp()), await withAvatar(await signUp()), await withAvatar(await signUp())];
    await ageAccount(old, 10);
    expectOk(await setFilters(me, { newerThanDays: 7 }));
    expectOk(await write(fresh, me));
    expectOk(await write(old, me));
    expect((await tray(me)).map((r) => r.profile.simpleCode)).toEqual([old.memberNo]);
    expect((await filteredTray(me)).map((r) => r.profile.simpleCode)).toEqual([fresh.memberNo]);

    expectOk(await setFilters(me, { notFollowed: true }));
    expectOk(await write(stranger, me));
    expect((await tray(me))).toEqual([]);
    expect((await filteredTray(me))).toHaveLength(3);
    expectOk(await follow(me, stranger));
    expect((await tray(me)).map((r) => r.profile.simpleCode)).toEqual([stranger.memberNo]);
  });

  it("a filtered sender's request sends no notification frame and no web push; an unfiltered one does", async () => {
    const me = await recipient();
    const [bare, pictured] = [await signUp(), await withAvatar(await signUp())];
    expectOk(await setFilters(me, { noAvatar: true }));

    const inbox = (await openSocket(me, "member-inbox", `SMP~${me.memberId}`)) as TestSocket;
    await inbox.next((e) => e.type === "inbox.counts");
    expectOk(await write(bare, me, "quiet please"));
    expectOk(await write(pictured, me));
    const frame = await inbox.next((e) => e.type === "notification");
    expect(frame.item.actorMemberNo).toBe(pictured.memberNo);
    await settle();
    const frames = inbox.events.filter((e) => e.type === "notification");
    expect(frames).toHaveLength(1);
    expect(JSON.stringify(inbox.events)).not.toContain(bare.memberNo);
    expect(JSON.stringify(inbox.events)).not.toContain("quiet please");
    // The counts frames never count the filtered request.
    for (const counts of inbox.events.filter((e) => e.type === "inbox.counts")) expect(counts.counts.requests).toBeLessThanOrEqual(1);
    inbox.close();

    // With no socket open, a closed app gets a push for the unfiltered sender only.
    const endpoint = await device(me);
    const [bare2, pictured2] = [await signUp(), await withAvatar(await signUp())];
    expectOk(await write(bare2, me));
    await settle();
    expect(await pushesTo(endpoint, 1, 600)).toBe(0);
    expectOk(await write(pictured2, me));
    expect(await pushesTo(endpoint, 1)).toBe(1);
    await settle();
    expect(await pushesTo(endpoint, 2, 300)).toBe(1);
  });

  it("the sender is told nothing: the same answers as before the filter, and their conversation reads as waiting", async () => {
    const me = await recipient();
    const bare = await signUp();
    expectOk(await setFilters(me, { noAvatar: true }));
    const sent = expectOk(await write(bare, me));
    expect(sent.isPrivate).toBe(true);
    const permission = expectOk(await call("GET", `/private/sns/message-permission/${me.memberNo}`, { as: bare }));
    expect(permission).toMatchObject({ canMessage: true, asRequest: true });
    const chats = expectOk(await call("GET", "/private/sns/chatroom/list", { as: bare }));
    expect(chats.find((c: { profile: { simpleCode: string } }) => c.profile.simpleCode === me.memberNo)?.waiting).toBe(true);
    expect(JSON.stringify(chats)).not.toMatch(/filter/i);
  });
});

describe("notifications with filters", () => {
  it("a filtered member's notice is kept in Filtered, uncounted, with no frame and no push", async () => {
    const me = await signUp();
    const [bare, pictured] = [await signUp(), await withAvatar(await signUp())];
    expectOk(await setFilters(me, { noAvatar: true }));
    const inbox = (await openSocket(me, "member-inbox", `SMP~${me.memberId}`)) as TestSocket;
    await inbox.next((e) => e.type === "inbox.counts");
    expectOk(await follow(bare, me));
    expectOk(await follow(pictured, me));
    await inbox.next((e) => e.type === "notification" && e.item.actorMemberNo === pictured.memberNo);
    await settle();
    expect(inbox.events.filter((e) => e.type === "notification").map((e) => e.item.actorMemberNo)).toEqual([pictured.memberNo]);
    inbox.close();

    expect((await notices(me)).map((n) => n.actorMemberNo)).toEqual([pictured.memberNo]);
    expect((await filteredNotices(me)).map((n) => [n.type, n.actorMemberNo])).toEqual([["follow", bare.memberNo]]);
    expect(expectOk(await call("GET", "/private/core/notifications/unread-count", { as: me })).count).toBe(1);

    const endpoint = await device(me);
    const late = await signUp();
    expectOk(await follow(late, me));
    await settle();
    expect(await pushesTo(endpoint, 1, 300)).toBe(0);

    // Off for notifications: the notices are back in the list (the filters never deleted them).
    expectOk(await setFilters(me, { noAvatar: true, inNotifications: false }));
    expect((await notices(me)).map((n) => n.actorMemberNo).sort()).toEqual([bare.memberNo, late.memberNo, pictured.memberNo].sort());
    expect(await filteredNotices(me)).toEqual([]);
  });

  it("another member's or tenant's Filtered section holds only their own", async () => {
    const [me, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    const bare = await signUp();
    expectOk(await setFilters(me, { noAvatar: true }));
    expectOk(await follow(bare, me));
    expect(await filteredNotices(me)).toHaveLength(1);
    expect(await filteredNotices(other)).toEqual([]);
    expect(await filteredNotices(foreign)).toEqual([]);
    expect(await filteredTray(other)).toEqual([]);
    expect(await filteredTray(foreign)).toEqual([]);
  });
});

describe("declines", () => {
  it("decline and block: the request leaves both lists, the block is the ordinary one, the sender gets not found", async () => {
    const me = await recipient();
    const sender = await withAvatar(await signUp());
    expectOk(await write(sender, me));
    const [request] = await tray(me);
    const result = expectOk(await call("POST", `/private/sns/message-requests/${request!.idRequest}/decline-block`, { as: me }));
    expect(result).toMatchObject({ idRequest: request!.idRequest, status: "declined", blocked: true });
    expect(await tray(me)).toEqual([]);
    expect(await filteredTray(me)).toEqual([]);
    const blocks = expectOk(await call("GET", "/private/core/blocks", { as: me }));
    expect(JSON.stringify(blocks)).toContain(sender.memberNo);
    expectFailure(await write(sender, me, "again"), 404);
    expectFailure(await call("GET", `/private/sns/message-permission/${me.memberNo}`, { as: sender }), 404);
  });

  it("decline everything: the request, their friend request and their unread notices; the sender is not told", async () => {
    const me = await recipient();
    const [sender, bystander] = [await withAvatar(await signUp()), await withAvatar(await signUp())];
    expectOk(await write(sender, me));
    expectOk(await call("POST", "/private/core/friends/request", { as: sender, body: { targetMemberNo: me.memberNo } }));
    expectOk(await call("POST", "/private/core/friends/request", { as: bystander, body: { targetMemberNo: me.memberNo } }));
    expectOk(await follow(sender, me));
    const [request] = await tray(me);
    const result = expectOk(await call("POST", `/private/sns/message-requests/${request!.idRequest}/decline-all`, { as: me }));
    expect(result).toEqual({ idRequest: request!.idRequest, status: "declined", friendRequests: 1, notifications: 3 });
    expect(await tray(me)).toEqual([]);
    const incoming = expectOk(await call("GET", "/private/core/friends?status=incoming", { as: me }));
    expect(JSON.stringify(incoming)).not.toContain(sender.memberNo);
    expect(JSON.stringify(incoming)).toContain(bystander.memberNo);
    expect(expectOk(await call("GET", "/private/core/notifications/unread-count", { as: me })).count).toBe(1);
    // The sender sees a conversation still waiting and may not learn more (no block: they may write again, held).
    const chats = expectOk(await call("GET", "/private/sns/chatroom/list", { as: sender }));
    expect(chats.find((c: { profile: { simpleCode: string } }) => c.profile.simpleCode === me.memberNo)?.waiting).toBe(true);
    expect(expectOk(await call("GET", `/private/sns/message-permission/${me.memberNo}`, { as: sender }))).toMatchObject({ canMessage: true, asRequest: true });
  });

  it("only the recipient decides: the sender, another member and another tenant get not found, a visitor 401, a bad id 400", async () => {
    const me = await recipient();
    const [sender, other, foreign] = [await withAvatar(await signUp()), await signUp(), await signUp("ABC")];
    expectOk(await write(sender, me));
    const [request] = await tray(me);
    for (const path of ["decline-block", "decline-all"]) {
      for (const as of [sender, other, foreign]) expectFailure(await call("POST", `/private/sns/message-requests/${request!.idRequest}/${path}`, { as }), 404);
      expectFailure(await call("POST", `/private/sns/message-requests/${request!.idRequest}/${path}`, { as: null }), 401);
      expectFailure(await call("POST", `/private/sns/message-requests/not-a-number/${path}`, { as: me }), 400);
      expectFailure(await call("POST", `/private/sns/message-requests/999999999/${path}`, { as: me }), 404);
    }
    // Nothing changed: still pending, no block either way.
    expect((await tray(me)).map((r) => r.idRequest)).toEqual([request!.idRequest]);
    const blocks = await env.DB.prepare("select count(*) as n from blocks where member_id in (?, ?, ?)").bind(sender.memberId, other.memberId, foreign.memberId).first<{ n: number }>();
    expect(blocks!.n).toBe(0);
  });

  it("decline everything from a filtered member marks their filtered notices read too", async () => {
    const me = await recipient();
    const bare = await signUp();
    expectOk(await setFilters(me, { noAvatar: true }));
    expectOk(await write(bare, me));
    expectOk(await follow(bare, me));
    const [request] = await filteredTray(me);
    expect(expectOk(await call("POST", `/private/sns/message-requests/${request!.idRequest}/decline-all`, { as: me })).notifications).toBe(2);
    const kept = expectOk(await call("GET", "/private/core/notifications/filtered", { as: me })).items as { read: boolean }[];
    expect(kept.map((n) => n.read)).toEqual([true, true]);
  });

  it("a declined request is decided once: declining it again is not found", async () => {
    const me = await recipient();
    const sender = await withAvatar(await signUp());
    expectOk(await write(sender, me));
    const [request] = await tray(me);
    expectOk(await call("POST", `/private/sns/message-requests/${request!.idRequest}/decline-all`, { as: me }));
    expectFailure(await call("POST", `/private/sns/message-requests/${request!.idRequest}/decline-block`, { as: me }), 404);
  });
});
