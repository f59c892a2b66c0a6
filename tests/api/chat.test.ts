import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HOME_CHATROOM_ID, PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { personalChatroomId } from "../../worker/features/members/personal-room";
import { call, expectFailure, expectOk, signUp, signUpPoster, withAvatar as canPost, type Member } from "../support/client";
import { privateImage } from "../support/route-matrix";
import { openSocket, type TestSocket } from "../support/socket";

let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${++seq}`;
const post = (m: Member, body: Record<string, unknown>, room = PUBLIC_CHATROOM_ID, as: Member | null = m) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as, body: { requestId: rid(), ...body } });
const list = (m: Member | null, room = PUBLIC_CHATROOM_ID) => call("GET", `/private/sns/chatroom/${room}/messages?pageSize=50`, { as: m });

async function withAvatar(m: Member, kyc = 0) {
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, kyc_status = ?, nickname = ? where member_id = ?")
    .bind(`/media/SMP/${m.memberNo}/avatar/a.jpg`, kyc, `nick${m.memberNo}`, m.memberId)
    .run();
  return { ...m, kycStatus: kyc };
}
const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

describe("posting messages", () => {
  it("stores a message once per requestId and lists it with UTC times", async () => {
    const a = await signUpPoster();
    const requestId = rid();
    const first = expectOk(await post(a, { message: "  hello room  ", requestId }));
    const again = expectOk(await post(a, { message: "hello room", requestId }));
    expect(again.idChatroomMessage).toBe(first.idChatroomMessage);
    expect(first.message).toBe("hello room");
    expect(first.payload).toEqual({ type: "text", content: "hello room" });
    expect(first.dateAdd).toMatch(/Z$/);
    expect(await count("select count(*) as n from chat_messages where member_id = ?", a.memberId)).toBe(1);
    const listed = expectOk(await list(a));
    expect(listed.some((m: any) => m.idChatroomMessage === first.idChatroomMessage)).toBe(true);
  });

  it("refuses empty text, bad payloads, anonymous, another member's path and another tenant", async () => {
    const [a, b, foreign] = [await signUpPoster(), await signUp(), await signUp("ABC")];
    const before = await count("select count(*) as n from chat_messages");
    expectFailure(await post(a, { message: "   " }), 400, "400701");
    expectFailure(await post(a, { message: "x", payload: { type: "img", src: "https://evil.example/x.png" } }), 400, "400000");
    expectFailure(await post(a, { message: "x", requestId: "no" }), 400, "400000");
    expectFailure(await post(a, { message: "x" }, "not a room!"), 400);
    expectFailure(await post(a, { message: "x" }, "unknownroom"), 404);
    expectFailure(await post(a, { message: "x" }, PUBLIC_CHATROOM_ID, null), 401);
    expectFailure(await post(a, { message: "x" }, PUBLIC_CHATROOM_ID, b), 403);
    expectFailure(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${foreign.memberId}`, { as: a, body: { message: "x", requestId: rid() } }), 403);
    expect(await count("select count(*) as n from chat_messages")).toBe(before);
    // Another tenant's public room is another room: nothing of SMP shows up there.
    expectOk(await post(a, { message: "smp only" }));
    expect(JSON.stringify(expectOk(await list(foreign)))).not.toContain("smp only");
  });

  it("needs an avatar for a private reply, kyc for images in shared rooms, and refuses blocked senders", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expectFailure(await post(a, { message: "psst", isPrivate: true, toMemberNo: b.memberNo }), 403, "403207");
    expectFailure(await post(a, { message: "psst", isPrivate: true }), 400, "400702");
    const img = { type: "img", src: `/media/SMP/${a.memberNo}/photo/x.jpg` };
    expectFailure(await post(a, { message: "", payload: img }), 403, "403702");
    const verified = await withAvatar(await signUp(), 1);
    expectOk(await post(verified, { message: "", payload: { type: "img", src: `/media/SMP/${verified.memberNo}/photo/x.jpg` } }));
    // Posting needs a qualifying avatar (§5/§6; tests/api/posting-rules.test.ts). Personal rooms do not require
    // verification for images.
    await canPost(a);
    expectOk(await post(a, { message: "", payload: img }, personalChatroomId(a.memberNo)));
    await env.DB.prepare("update profiles set blocked = 1 where member_id = ?").bind(a.memberId).run();
    const refused = expectFailure(await post(a, { message: "let me speak" }), 403, "403209");
    expect(refused.returnMessage).toMatch(/report blocked/);
    // The insert rides in the same batch as the checks: refused means nothing was stored.
    const stored = await env.DB.prepare("select count(*) as n from chat_messages where member_id = ? and message = 'let me speak'").bind(a.memberId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("lets only the author edit (empty text deletes) and delete", async () => {
    const [a, b] = [await signUpPoster(), await signUp()];
    const m = expectOk(await post(a, { message: "first draft" }));
    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${b.memberId}/${m.idChatroomMessage}`, { as: b, body: { message: "hijack" } }), 403);
    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${m.idChatroomMessage}`, { as: b, body: { message: "hijack" } }), 403);
    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${m.idChatroomMessage}`, { as: null, body: { message: "hijack" } }), 401);
    const edited = expectOk(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${m.idChatroomMessage}`, { as: a, body: { message: "final" } }));
    expect(edited.message).toBe("final");
    expectFailure(await call("DELETE", `/private/sns/chatroom/messages/${b.memberId}/${m.idChatroomMessage}`, { as: b }), 403);
    expectOk(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${m.idChatroomMessage}`, { as: a, body: { message: "  " } }));
    expect(await count("select deleted as n from chat_messages where id_chatroom_message = ?", m.idChatroomMessage)).toBe(1);
    expect(JSON.stringify(expectOk(await list(b)))).not.toContain("final");
    const m2 = expectOk(await post(a, { message: "to delete" }));
    expectOk(await call("DELETE", `/private/sns/chatroom/messages/${a.memberId}/${m2.idChatroomMessage}?all=true`, { as: a }));
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${m2.idChatroomMessage}`, { as: b }), 404);
  });

  it("reacts with one emoji per member and shows reactions to everyone", async () => {
    const [a, b] = [await signUpPoster(), await signUp()];
    const m = expectOk(await post(a, { message: "react to me" }));
    const path = `/private/sns/chatroom/messages/${b.memberId}/${m.idChatroomMessage}/react`;
    expectOk(await call("PUT", path, { as: b, body: { replyPayload: { type: "emoji", reactEmoji: "🔥" } } }));
    const again = expectOk(await call("PUT", path, { as: b, body: { replyPayload: { type: "emoji", reactEmoji: "❤️" } } }));
    expect(again.replyPayload).toEqual([{ type: "emoji", reactEmoji: "❤️", memberNo: b.memberNo }]);
    expectFailure(await call("PUT", path, { as: b, body: { replyPayload: { reactEmoji: "" } } }), 400);
    const detail = expectOk(await call("GET", `/private/sns/chatroom/messages/${m.idChatroomMessage}`, { as: a }));
    expect(detail.replyPayload[0].reactEmoji).toBe("❤️");
  });
});

describe("threads and M coins", () => {
  it("adds replies, counts threads, pays the author 1 M coin once per post (§9; tests/api/member-journeys.test.ts), refuses a private reply to one's own note", async () => {
    const [author, replier] = [await withAvatar(await signUp()), await withAvatar(await signUp())];
    const note = expectOk(await post(author, { message: "a note worth replying to" }));
    const reply = (m: Member, body: Record<string, unknown>) => call("POST", `/private/sns/chatroom/messages/threads/${m.memberId}`, { as: m, body: { idChatroomMessage: note.idChatroomMessage, ...body } });
    expect(expectOk(await reply(replier, { message: "first reply" })).threadCount).toBe(1);
    expect(expectOk(await reply(replier, { message: "second reply" })).threadCount).toBe(2);
    expectFailure(await reply(author, { message: "to myself", isPrivate: true }), 400, "400704");
    expectFailure(await reply(replier, { message: "   " }), 400, "400701");
    expectFailure(await call("POST", `/private/sns/chatroom/messages/threads/${author.memberId}`, { as: replier, body: { idChatroomMessage: note.idChatroomMessage, message: "x" } }), 403);
    const coins = await count("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ? and reason = 'replyReceived'", author.memberId);
    expect(coins).toBe(1);
    const secret = expectOk(await reply(replier, { message: "only for the author", isPrivate: true }));
    expect(secret.message).toBe("only for the author");
    const outsider = await signUp();
    const seen = expectOk(await call("GET", `/private/sns/chatroom/messages/${note.idChatroomMessage}`, { as: outsider }));
    expect(seen.threadCount).toBe(3);
    expect(seen.threads.map((t: any) => t.message)).toEqual(["first reply", "second reply", "private message"]);
    const byAuthor = expectOk(await call("GET", `/private/sns/chatroom/messages/${note.idChatroomMessage}`, { as: author }));
    expect(byAuthor.threads[2].message).toBe("only for the author");
    // Visitors may read notes (§6), with private replies as placeholders.
    const visitor = expectOk(await call("GET", `/public/sns/chatroom/messages/${note.idChatroomMessage}?project=SMP`));
    expect(JSON.stringify(visitor)).not.toContain("only for the author");
    expectFailure(await call("GET", `/public/sns/chatroom/messages/${note.idChatroomMessage}?project=ABC`), 404);
  });
});

describe("private messages, requests and the inbox", () => {
  it("holds a stranger's message in the requests tray until accepted", async () => {
    const [stranger, b] = [await signUp(), await signUp()];
    const room = directChatroomId(stranger.memberNo, b.memberNo);
    const sent = expectOk(await post(stranger, { message: "hi, we have not met" }, room));
    expect(sent.isPrivate).toBe(true);
    // Not in b's inbox: no conversation, no unread, only the placeholder in the room.
    expect(expectOk(await call("GET", "/private/sns/chatroom/list", { as: b }))).toEqual([]);
    const counts = expectOk(await call("GET", "/private/sns/chatroom/unread-counts", { as: b }));
    expect(counts.total).toBe(0);
    expect(counts.requests).toBe(1);
    expect(JSON.stringify(expectOk(await list(b, room)))).not.toContain("we have not met");
    const requests = expectOk(await call("GET", "/private/sns/message-requests", { as: b }));
    expect(requests).toHaveLength(1);
    expect(requests[0].profile.simpleCode).toBe(stranger.memberNo);
    expectFailure(await call("PUT", `/private/sns/message-requests/${requests[0].idRequest}`, { as: stranger, body: { decision: "accept" } }), 404);
    expectFailure(await call("PUT", `/private/sns/message-requests/${requests[0].idRequest}`, { as: b, body: { decision: "maybe" } }), 400);
    expectOk(await call("PUT", `/private/sns/message-requests/${requests[0].idRequest}`, { as: b, body: { decision: "accept" } }));
    const chats = expectOk(await call("GET", "/private/sns/chatroom/list", { as: b }));
    expect(chats[0].chatroomId).toBe(room);
    expect(chats[0].unread).toBe(1);
    expect(JSON.stringify(expectOk(await list(b, room)))).toContain("we have not met");
    expectOk(await call("PUT", `/private/sns/chatroom/${room}/read`, { as: b, body: {} }));
    expect(expectOk(await call("GET", "/private/sns/chatroom/unread-counts", { as: b })).total).toBe(0);
    // A third member cannot open the pair's room at all.
    const c = await signUp();
    expectFailure(await list(c, room), 404);
    expectFailure(await post(c, { message: "let me in" }, room), 404);
  });

  it("keeps a first message in the sender's chat list as waiting; the recipient's reply is delivered directly and accepts", async () => {
    const [newcomer, b] = [await signUp(), await signUp()];
    const room = directChatroomId(newcomer.memberNo, b.memberNo);
    // Before writing: the profile's Message button learns the first message will wait in b's tray.
    expect(expectOk(await call("GET", `/private/sns/message-permission/${b.memberNo}`, { as: newcomer }))).toEqual({ memberNo: b.memberNo, nickname: expect.any(String), canMessage: true, reason: null, asRequest: true });
    expectOk(await post(newcomer, { message: "hello from a newcomer" }, room));
    const mine = expectOk(await call("GET", "/private/sns/chatroom/list", { as: newcomer }));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ chatroomId: room, waiting: true, unread: 0, profile: { simpleCode: b.memberNo } });
    expect(mine[0].lastMessage.message).toBe("hello from a newcomer");
    // The tray is the recipient's alone.
    expect(expectOk(await call("GET", "/private/sns/message-requests", { as: newcomer }))).toEqual([]);
    expect(expectOk(await call("GET", "/private/sns/chatroom/unread-counts", { as: newcomer })).requests).toBe(0);
    expect(expectOk(await call("GET", "/private/sns/message-requests", { as: b }))).toHaveLength(1);
    // b answers without using the tray: delivered straight to the newcomer, never a request to them, and it accepts.
    expectOk(await post(b, { message: "welcome, newcomer" }, room));
    expect(expectOk(await call("GET", "/private/sns/message-requests", { as: newcomer }))).toEqual([]);
    expect(expectOk(await call("GET", "/private/sns/message-requests", { as: b }))).toEqual([]);
    const after = expectOk(await call("GET", "/private/sns/chatroom/list", { as: newcomer }));
    expect(after[0]).toMatchObject({ chatroomId: room, waiting: false, unread: 1 });
    expect(after[0].lastMessage.message).toBe("welcome, newcomer");
    const page = expectOk(await list(newcomer, room));
    expect(page.map((m: { message: string; blocked: boolean }) => [m.message, m.blocked])).toEqual([
      ["hello from a newcomer", false],
      ["welcome, newcomer", false],
    ]);
    expect(expectOk(await call("GET", "/private/sns/chatroom/list", { as: b }))[0]).toMatchObject({ chatroomId: room, waiting: false });
    expect(expectOk(await call("GET", `/private/sns/message-permission/${b.memberNo}`, { as: newcomer })).asRequest).toBe(false);
    // A block still refuses, both ways, and hides the conversation and the permission.
    expectOk(await call("POST", "/private/core/blocks", { as: b, body: { targetMemberNo: newcomer.memberNo } }));
    expectFailure(await post(newcomer, { message: "are you there?" }, room), 404);
    expectFailure(await post(b, { message: "one more" }, room), 404);
    expectFailure(await call("GET", `/private/sns/message-permission/${b.memberNo}`, { as: newcomer }), 404);
    expectFailure(await call("GET", `/private/sns/message-permission/${newcomer.memberNo}`, { as: b }), 404);
    expect(expectOk(await call("GET", "/private/sns/chatroom/list", { as: newcomer }))).toEqual([]);
  });

  it("keeps a declined sender waiting (never told) and the permission of one's own number is 'self'", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const room = directChatroomId(a.memberNo, b.memberNo);
    expectOk(await post(a, { message: "may I?" }, room));
    const [request] = expectOk(await call("GET", "/private/sns/message-requests", { as: b }));
    expectOk(await call("PUT", `/private/sns/message-requests/${request.idRequest}`, { as: b, body: { decision: "decline" } }));
    expect(expectOk(await call("GET", "/private/sns/chatroom/list", { as: a }))[0]).toMatchObject({ chatroomId: room, waiting: true });
    expect(expectOk(await call("GET", `/private/sns/message-permission/${a.memberNo}`, { as: a }))).toMatchObject({ canMessage: false, reason: "self" });
    expectFailure(await call("GET", "/private/sns/message-permission/not-a-number", { as: a }), 400);
    expectFailure(await call("GET", `/private/sns/message-permission/${b.memberNo}`, { as: null }), 401);
  });

  it("delivers directly from a followed member, and honours acceptFrom settings", async () => {
    const [a, b] = [await signUp(), await signUp()];
    await env.DB.prepare("insert into follows (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(b.memberId, a.memberId, Date.now()).run();
    const room = directChatroomId(a.memberNo, b.memberNo);
    expectOk(await post(a, { message: "from someone you follow" }, room));
    expect(expectOk(await call("GET", "/private/sns/chatroom/unread-counts", { as: b })).total).toBe(1);
    expectFailure(await call("PUT", "/private/sns/chat-settings", { as: b, body: { acceptFrom: "strangers" } }), 400);
    const settings = expectOk(await call("PUT", "/private/sns/chat-settings", { as: b, body: { acceptFrom: "verified", acceptRoles: [2] } }));
    expect(settings).toEqual({ acceptFrom: "verified", acceptRoles: [2], presenceAudience: "everyone" });
    const role2 = await signUp();
    await env.DB.prepare("update profiles set multi_gender = 2 where member_id = ?").bind(role2.memberId).run();
    expectOk(await post(role2, { message: "by role" }, directChatroomId(role2.memberNo, b.memberNo)));
    expect(expectOk(await call("GET", "/private/sns/message-requests", { as: b }))).toEqual([]);
  });

  it("blurs a stranger's image until the recipient accepts it", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: b, body: { acceptFrom: "everyone" } }));
    const room = directChatroomId(a.memberNo, b.memberNo);
    const m = expectOk(await post(a, { message: "", payload: { type: "img", src: await privateImage(a) } }, room));
    expect(m.blurred).toBe(false);
    const seen = expectOk(await list(b, room)).find((x: any) => x.idChatroomMessage === m.idChatroomMessage);
    expect(seen.blurred).toBe(true);
    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${m.idChatroomMessage}/accept-image`, { as: a }), 404);
    expectOk(await call("PUT", `/private/sns/chatroom/messages/${b.memberId}/${m.idChatroomMessage}/accept-image`, { as: b }));
    expect(expectOk(await list(b, room)).find((x: any) => x.idChatroomMessage === m.idChatroomMessage).blurred).toBe(false);
  });

  it("stores an encrypted private message as ciphertext only", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const room = directChatroomId(a.memberNo, b.memberNo);
    const payload = { type: "encrypted", alg: "RSA-OAEP-256+A256GCM", iv: "AAAAAAAAAAAAAAAA", data: "Y2lwaGVydGV4dA==", keys: { [a.memberNo]: "d3JhcA==", [b.memberNo]: "d3JhcA==" } };
    const m = expectOk(await post(a, { message: "", payload }, room));
    const row = await env.DB.prepare("select message, payload from chat_messages where id_chatroom_message = ?").bind(m.idChatroomMessage).first<{ message: string; payload: string }>();
    expect(row!.message).toBe("");
    expect(JSON.parse(row!.payload).data).toBe("Y2lwaGVydGV4dA==");
    expectFailure(await post(a, { message: "", payload }), 400, "400702");
  });

  it("pushes unread counts and the notification to the recipient's inbox stream", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: b, body: { acceptFrom: "everyone" } }));
    const inbox = (await openSocket(b, "member-inbox", `SMP~${b.memberId}`)) as TestSocket;
    const initial = await inbox.next((e) => e.type === "inbox.counts");
    expect(initial.counts.total).toBe(0);
    expectOk(await post(a, { message: "ping b" }, directChatroomId(a.memberNo, b.memberNo)));
    const note = await inbox.next((e) => e.type === "notification");
    expect(note.item.type).toBe("privateMessage");
    const counts = await inbox.next((e) => e.type === "inbox.counts" && e.counts.total === 1);
    expect(counts.latestNotificationId).toBe(note.item.idNotification);
    inbox.close();
  });
});

describe("connections, reminders, web push, counts, presence", () => {
  it("creates, lists and deletes connections only for their owner", async () => {
    const [a, b, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    expectFailure(await call("POST", "/private/sns/connections", { as: a, body: { memberNo: a.memberNo } }), 400, "400703");
    expectFailure(await call("POST", "/private/sns/connections", { as: a, body: { memberNo: foreign.memberNo } }), 404);
    expectFailure(await call("POST", "/private/sns/connections", { as: a, body: { memberNo: "x" } }), 400);
    const created = expectOk(await call("POST", "/private/sns/connections", { as: a, body: { memberNo: b.memberNo } }));
    expect(created.chatroomId).toBe(directChatroomId(a.memberNo, b.memberNo));
    expect(expectOk(await call("GET", "/private/sns/connections", { as: a }))).toHaveLength(1);
    expect(expectOk(await call("GET", "/private/sns/connections", { as: b }))).toHaveLength(0);
    expectFailure(await call("GET", `/private/sns/connections/${created.idConnection}`, { as: b }), 404);
    expectFailure(await call("DELETE", `/private/sns/connections/${created.idConnection}`, { as: b }), 404);
    expect(expectOk(await call("GET", `/private/sns/connections/${created.idConnection}`, { as: a })).memberNo).toBe(b.memberNo);
    expectOk(await call("DELETE", `/private/sns/connections/${created.idConnection}`, { as: a }));
    expect(expectOk(await call("GET", "/private/sns/connections", { as: a }))).toHaveLength(0);
  });

  it("sets a reminder on a message and lists only today's (UTC)", async () => {
    const [a, b] = [await signUpPoster(), await signUp()];
    const m = expectOk(await post(a, { message: "remind me" }));
    const today = new Date().toISOString();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expectOk(await call("POST", "/private/core/reminders", { as: b, body: { idChatroomMessage: m.idChatroomMessage, title: "Call back", description: "about rope", remindAt: today } }));
    expectOk(await call("POST", "/private/core/reminders", { as: b, body: { idChatroomMessage: m.idChatroomMessage, title: "Later", remindAt: tomorrow } }));
    expectFailure(await call("POST", "/private/core/reminders", { as: b, body: { idChatroomMessage: m.idChatroomMessage, title: " ", remindAt: today } }), 400);
    expectFailure(await call("POST", "/private/core/reminders", { as: b, body: { idChatroomMessage: m.idChatroomMessage, title: "x", remindAt: "tomorrow" } }), 400);
    expectFailure(await call("POST", "/private/core/reminders", { as: null, body: { idChatroomMessage: m.idChatroomMessage, title: "x", remindAt: today } }), 401);
    const mine = expectOk(await call("GET", "/private/core/reminders", { as: b }));
    expect(mine.map((r: any) => r.title)).toEqual(["Call back"]);
    expect(mine[0].remindAt).toMatch(/Z$/);
    expect(expectOk(await call("GET", "/private/core/reminders", { as: a }))).toEqual([]);
  });

  it("stores web push sources and counts unread for WEB_PUSH", async () => {
    const [a, b] = [await signUp(), await signUp()];
    expectFailure(await call("PUT", `/private/sns/notifications/source/${b.memberId}`, { as: a, body: { sourceKey: "k" } }), 403);
    expectFailure(await call("PUT", `/private/sns/notifications/source/${a.memberId}`, { as: a, body: { sourceKey: "" } }), 400);
    expectOk(await call("PUT", `/private/sns/notifications/source/${a.memberId}`, { as: a, body: { sourceKey: "browser-1" } }));
    expect(await count("select count(*) as n from chat_push_sources where member_id = ?", a.memberId)).toBe(1);
    const info = expectOk(await call("GET", "/private/sns/notifications/count?source=WEB_PUSH", { as: a }));
    expect(info).toMatchObject({ source: "WEB_PUSH", count: 0 });
  });

  it("counts members connected to a room and the home room has its own fixed id", async () => {
    const a = await signUp();
    const socket = (await openSocket(a, "chat-room", `SMP~${HOME_CHATROOM_ID}`)) as TestSocket;
    await socket.next((e) => e.type === "welcome");
    expect(expectOk(await call("GET", `/private/sns/chatroom-member/count?chatroomId=${HOME_CHATROOM_ID}`, { as: a })).count).toBe(1);
    expectFailure(await call("GET", "/private/sns/chatroom-member/count?chatroomId=nope!", { as: a }), 400);
    socket.close();
    expect(HOME_CHATROOM_ID).toHaveLength(32);
    expect(PUBLIC_CHATROOM_ID).toHaveLength(32);
  });

  it("hides presence from members outside the chosen audience", async () => {
    const [shy, follower, stranger] = [await signUp(), await signUp(), await signUp()];
    await env.DB.prepare("insert into follows (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(follower.memberId, shy.memberId, Date.now()).run();
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: shy, body: { presenceAudience: "followers" } }));
    const sf = (await openSocket(follower, "presence", "SMP~presence")) as TestSocket;
    const ss = (await openSocket(stranger, "presence", "SMP~presence")) as TestSocket;
    await sf.next((e) => e.type === "presence.snapshot");
    await ss.next((e) => e.type === "presence.snapshot");
    const shySocket = (await openSocket(shy, "presence", "SMP~presence")) as TestSocket;
    await shySocket.next((e) => e.type === "presence.snapshot");
    expect((await sf.next((e) => e.type === "presence.update" && e.member.memberNo === shy.memberNo)).member.online).toBe(true);
    const listFollower = expectOk(await call("GET", "/private/sns/presence/SMP?pageSize=100", { as: follower }));
    const listStranger = expectOk(await call("GET", "/private/sns/presence/SMP?pageSize=100", { as: stranger }));
    expect(listFollower.some((p: any) => p.profile.simpleCode === shy.memberNo)).toBe(true);
    expect(listStranger.some((p: any) => p.profile.simpleCode === shy.memberNo)).toBe(false);
    expectFailure(await call("GET", "/private/sns/presence/ABC", { as: stranger }), 404);
    // Page unload: offline at once.
    shySocket.socket.send(JSON.stringify({ type: "presence.leave" }));
    expect((await sf.next((e) => e.type === "presence.update" && e.member.memberNo === shy.memberNo && !e.member.online)).member.online).toBe(false);
    expect(ss.events.some((e) => e.type === "presence.update" && e.member.memberNo === shy.memberNo)).toBe(false);
    for (const s of [sf, ss, shySocket]) s.close();
  });

  it("refreshes presence both ways on a block: neither sees the other come and go, and an unblock shows them again", async () => {
    const [blocker, blocked] = [await signUp(), await signUp()];
    const sBlocked = (await openSocket(blocked, "presence", "SMP~presence")) as TestSocket;
    await sBlocked.next((e) => e.type === "presence.snapshot");
    const sBlocker = (await openSocket(blocker, "presence", "SMP~presence")) as TestSocket;
    await sBlocker.next((e) => e.type === "presence.snapshot");
    await sBlocked.next((e) => e.type === "presence.update" && e.member.memberNo === blocker.memberNo && e.member.online);
    const { idBlock } = expectOk(await call("POST", "/private/core/blocks", { as: blocker, body: { targetMemberNo: blocked.memberNo } }));
    // Each is told the other went offline, within the socket wait.
    await sBlocked.next((e) => e.type === "presence.update" && e.member.memberNo === blocker.memberNo && !e.member.online, 2000);
    await sBlocker.next((e) => e.type === "presence.update" && e.member.memberNo === blocked.memberNo && !e.member.online, 2000);
    // Coming and going after the block reaches neither.
    const again = (await openSocket(blocker, "presence", "SMP~presence")) as TestSocket;
    await again.next((e) => e.type === "presence.snapshot");
    expect(again.events.find((e) => e.type === "presence.snapshot").members.some((m: any) => m.memberNo === blocked.memberNo)).toBe(false);
    again.close();
    expectOk(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: blocker }));
    await sBlocked.next((e) => e.type === "presence.update" && e.member.memberNo === blocker.memberNo && e.member.online, 2000);
    for (const s of [sBlocked, sBlocker]) s.close();
  });
});

describe("posting stamps the sender's latest speech once", () => {
  it("sets last_chat_at on a shared-room post and leaves it alone for a duplicate requestId", async () => {
    const a = await signUp();
    await env.DB.prepare("update profiles set kyc_status = 1, nickname = 'Poster', avator = '/media/x.jpg', qualify = 1 where member_id = ?").bind(a.memberId).run();
    const body = { requestId: `stamp-${a.memberNo}`, message: "hello", isPrivate: false, payload: { type: "text", content: "hello" } };
    const path = `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${a.memberId}`;
    const first = expectOk(await call("POST", path, { as: a, body }));
    const stamped = await env.DB.prepare("select last_chat_at as t from profiles where member_id = ?").bind(a.memberId).first<{ t: number }>();
    expect(stamped!.t).toBe(Date.parse(first.dateAdd));
    await env.DB.prepare("update profiles set last_chat_at = 1 where member_id = ?").bind(a.memberId).run();
    expect(expectOk(await call("POST", path, { as: a, body })).idChatroomMessage).toBe(first.idChatroomMessage);
    expect((await env.DB.prepare("select last_chat_at as t from profiles where member_id = ?").bind(a.memberId).first<{ t: number }>())!.t).toBe(1);
  });
});
