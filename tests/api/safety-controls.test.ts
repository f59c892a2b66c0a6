import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { listMessagesJson } from "../../worker/features/chat/chat-page";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { freshWindowIfEnding } from "../support/rate-window";
import { openSocket, type TestSocket } from "../support/socket";
import { block, eventually, notificationRows, verifiedMember } from "./social-support";

// README Decisions "Safety controls": removing a follower (soft block) and a report that hides at once.

const followers = async (m: Member) =>
  expectOk(await call("GET", `/private/core/followers/${m.memberId}?pageSize=30`, { as: m })).items.map((i: any) => i.profile.simpleCode);
const followInfo = async (viewer: Member, of: Member) => expectOk(await call("GET", `/private/core/follows/${of.memberNo}`, { as: viewer }));
const removeFollower = (as: Member | null, memberNo: string) => call("DELETE", `/private/core/followers/${memberNo}`, { as });
const count = async (query: string, ...binds: unknown[]) => (await env.DB.prepare(query).bind(...binds).first<{ n: number }>())!.n;

describe("remove a follower without blocking", () => {
  it("removes only the follow row, silently: no block, no notice, the removed member may follow again", async () => {
    const [me, fan, other] = [await signUp(), await signUp(), await signUp()];
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: fan }));
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: other }));
    expect((await followers(me)).sort()).toEqual([fan.memberNo, other.memberNo].sort());
    const noticesBefore = (await notificationRows(fan)).length;

    const info = expectOk(await removeFollower(me, fan.memberNo));
    // The answer is my view of them: they no longer follow me, and my follower count went down.
    expect(info).toEqual({ memberNo: fan.memberNo, following: false, followedBy: false, followers: 0, followingCount: 0, followStatus: "none" });
    expect(await followers(me)).toEqual([other.memberNo]);
    expect((await followInfo(other, me)).followers).toBe(1);

    // The removed member sees only that they no longer follow: nothing blocks them, nothing tells them.
    expect(await followInfo(fan, me)).toEqual({ memberNo: me.memberNo, following: false, followedBy: false, followers: 1, followingCount: 0, followStatus: "none" });
    expect(await count("select count(*) as n from blocks where member_id in (?, ?)", me.memberId, fan.memberId)).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect((await notificationRows(fan)).length).toBe(noticesBefore);
    expect(expectOk(await call("GET", "/private/core/notifications", { as: fan })).items).toEqual([]);
    const profile = await call("GET", `/private/core/actions/${me.memberNo}`, { as: fan });
    expect(profile.status).toBe(200);

    // They may follow again (this member does not approve followers; see approve-followers.test.ts for the gate).
    expect(expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: fan })).following).toBe(true);
    expect((await followers(me)).sort()).toEqual([fan.memberNo, other.memberNo].sort());
  });

  it("is 404 for a non-follower, someone I only follow, another tenant's member and a blocked member; 401 for a visitor; 400 for myself or a bad number", async () => {
    const [me, stranger, followed, blocked] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const foreign = await signUp("ABC");
    expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: me }));
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: blocked }));
    expectFailure(await call("POST", `/private/core/follows/${me.memberNo}`, { as: foreign }), 404);

    const notFound = expectFailure(await removeFollower(me, stranger.memberNo), 404, "404000");
    expect(notFound).not.toHaveProperty("info");
    expectFailure(await removeFollower(me, followed.memberNo), 404, "404000");
    // The row I follow stays: removing a follower never touches my own follows.
    expect((await followInfo(me, followed)).following).toBe(true);
    expectFailure(await removeFollower(me, foreign.memberNo), 404, "404000");
    // Someone I do not follow cannot remove me from their followers (and learns nothing from the answer).
    expectFailure(await removeFollower(stranger, me.memberNo), 404, "404000");
    await block(me, blocked);
    expectFailure(await removeFollower(me, blocked.memberNo), 404, "404000");
    expectFailure(await removeFollower(null, stranger.memberNo), 401);
    expectFailure(await removeFollower(me, me.memberNo), 400);
    expectFailure(await removeFollower(me, "not-a-number"), 400);
  });
});

describe("remove a follower: rate limit", () => {
  it("shares the follow budget of RL_SOCIAL: 20 a minute, then 429 in the envelope", async () => {
    const [me, stranger] = [await signUp(), await signUp()];
    await freshWindowIfEnding(60);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await removeFollower(me, stranger.memberNo)).status);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(expectFailure(await removeFollower(me, stranger.memberNo), 429, "429000").returnMessage).toBe("Too many requests, please try again later");
  });
});

let seq = 0;
const post = (m: Member, body: Record<string, unknown>) =>
  call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { requestId: `safety-${Date.now().toString(36)}-${++seq}`, ...body } });
const page = async (viewer: Member | null) =>
  expectOk(
    await call("GET", viewer ? `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50` : `/public/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50&project=SMP`, { as: viewer }),
  ).map((m: any) => m.message as string);
const asChatMember = (m: Member) => ({ memberId: m.memberId, memberNo: m.memberNo, projectCode: m.projectCode, kycStatus: 1 });
/** The page a reader gets from the kept window (chat-page-kept.ts), as deployed. */
const keptPage = async (viewer: Member) =>
  (JSON.parse(await listMessagesJson({ ...env, CHAT_PAGE_TTL_SECONDS: "60" } as Env, "SMP", PUBLIC_CHATROOM_ID, asChatMember(viewer), { pageSize: 50 })) as any[]).map((m) => m.message);

describe("a report hides the reported member's content for the reporter at once", () => {
  it("leaves them out of the reporter's chat pages, kept pages, threads, guestbook and socket frames; others still see it", async () => {
    const [author, reporter, other] = [await verifiedMember(), await verifiedMember(), await verifiedMember()];
    expectOk(await post(author, { message: "reported words" }));
    const note = expectOk(await post(other, { message: "a note" }));
    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${author.memberId}`, { as: author, body: { idChatroomMessage: note.idChatroomMessage, message: "reported reply" } }));
    expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: reporter.memberNo, text: "reported guestbook words" } }));
    // The reporter's kept window is read before the report, so the kept rows must drop the message afterwards.
    expect(await keptPage(reporter)).toContain("reported words");
    expect(await page(reporter)).toContain("reported words");

    const reported = expectOk(await call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: author.memberNo, reason: "harassment" } }));
    expect(reported).toEqual({ memberNo: author.memberNo, reported: true, hidden: true });

    // The reporter: gone from every read, at once.
    expect(await page(reporter)).toEqual(["a note"]);
    expect(await keptPage(reporter)).toEqual(["a note"]);
    const seen = expectOk(await call("GET", `/private/sns/chatroom/messages/${note.idChatroomMessage}`, { as: reporter }));
    expect(seen.threads.map((t: any) => t.message)).toEqual([]);
    expect(expectOk(await call("GET", `/private/core/guestbooks/${reporter.memberId}`, { as: reporter })).items).toEqual([]);
    // It is the reporter's own lasting mute, listed with their mutes so they can lift it.
    const mutes = expectOk(await call("GET", "/private/core/mutes", { as: reporter })).items;
    expect(mutes.map((m: any) => [m.profile.simpleCode, m.expiresAt])).toEqual([[author.memberNo, null]]);

    // Everyone else still sees it until an operator decides: another member (live and kept pages, threads) and a visitor.
    expect(await page(other)).toEqual(["reported words", "a note"]);
    expect(await keptPage(other)).toEqual(["reported words", "a note"]);
    expect(await page(null)).toEqual(["reported words", "a note"]);
    const byOther = expectOk(await call("GET", `/private/sns/chatroom/messages/${note.idChatroomMessage}`, { as: other }));
    expect(byOther.threads.map((t: any) => t.message)).toEqual(["reported reply"]);
    // The report is open in the moderation queue, and the reported member is told nothing of it.
    expect(await count("select count(*) as n from reports where member_id = ? and target_member_id = ? and status = 'open'", reporter.memberId, author.memberId)).toBe(1);
    expect((await notificationRows(author)).filter((n) => n.actor_member_id === reporter.memberId)).toEqual([]);

    // Socket frames: a new message from the reported member reaches the other member but not the reporter.
    const [toReporter, toOther] = [
      (await openSocket(reporter, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket,
      (await openSocket(other, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket,
    ];
    await Promise.all([toReporter.next((e) => e.type === "welcome"), toOther.next((e) => e.type === "welcome")]);
    const later = expectOk(await post(author, { message: "said after the report" }));
    expectOk(await post(other, { message: "a marker after it" }));
    const isMessage = (id: number) => (e: any) => e.type === "chat.message" && e.message.idChatroomMessage === id;
    await toOther.next(isMessage(later.idChatroomMessage));
    await eventually(async () => toReporter.events.some((e) => e.type === "chat.message" && e.message.message === "a marker after it"), Boolean);
    expect(toReporter.events.filter((e) => e.type === "chat.message").map((e) => e.message.message)).toEqual(["a marker after it"]);
    expect(JSON.stringify(toReporter.events)).not.toContain("said after the report");
    toReporter.close();
    toOther.close();
  });

  it("is 404 for another tenant's member and hides nothing there; 401 for a visitor", async () => {
    const reporter = await signUpPoster();
    const foreign = await signUpPoster("ABC");
    expectFailure(await call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: foreign.memberNo, reason: "x" } }), 404, "404000");
    expect(await count("select count(*) as n from mutes where member_id = ?", reporter.memberId)).toBe(0);
    expectFailure(await call("POST", "/private/core/reports", { body: { targetMemberNo: foreign.memberNo } }), 401);
  });
});
