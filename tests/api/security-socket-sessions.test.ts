import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectOk, login, signUp, signUpPoster, headersFor, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { block } from "./social-support";
import { suspendMember } from "../../worker/features/moderation/moderation.service";

/**
 * Sockets end with their session (README Decisions "Sockets end with their session"): for every way a session ends,
 * the member's open inbox, one-to-one room and presence sockets close within a second (4001), and nothing sent after
 * reaches them (their last frame is `session.ended`); a socket whose session ended unnoticed gets no ack for a send. A block closes the pair's room (4403).
 */

let seq = 0;
const rid = () => `ss-${Date.now().toString(36)}-${++seq}`;

type Watched = TestSocket & { closed: Promise<CloseEvent>; frames: () => number };

/** A socket that also records its close; the caller has waited for its first frames. */
async function watched(member: Member, party: string, name: string, first: string): Promise<Watched> {
  const opened = await openSocket(member, party, name);
  if (opened instanceof Response) throw new Error(`${party} ${name}: ${opened.status}`);
  const closed = new Promise<CloseEvent>((resolve) => opened.socket.addEventListener("close", (event) => resolve(event as CloseEvent)));
  await opened.next((e) => e.type === first);
  return Object.assign(opened, { closed, frames: () => opened.events.length });
}

/** `a` takes private messages from anyone, so each DM from `b` is also a notification in `a`'s inbox. */
async function pair() {
  const [a, b] = [await signUpPoster(), await signUpPoster()];
  expectOk(await call("PUT", "/private/sns/chat-settings", { as: a, body: { acceptFrom: "everyone" } }));
  return { a, b, room: `SMP~${directChatroomId(a.memberNo, b.memberNo)}` };
}

/** Another device of the same member: a second login, its own session. */
async function secondDevice(member: Member): Promise<Member> {
  const info = expectOk(await login("SMP", member.email, member.password));
  return { ...member, ...info, headers: headersFor(info) };
}

async function streams(member: Member, room: string) {
  const inbox = await watched(member, "member-inbox", `SMP~${member.memberId}`, "inbox.counts");
  const dm = await watched(member, "chat-room", room, "welcome");
  return { inbox, dm };
}

const dmFrom = (from: Member, to: Member, text: string) =>
  call("POST", `/private/sns/chatrooms/${directChatroomId(from.memberNo, to.memberNo)}/messages/${from.memberId}`, { as: from, body: { message: text, requestId: rid() } });

async function closedWithinASecond(socket: Watched) {
  const started = Date.now();
  const event = await Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
  expect(event, "socket still open a second after the session ended").not.toBeNull();
  expect(Date.now() - started).toBeLessThan(1000);
  return event!.code;
}

/** Nothing more arrives: a DM and a notification sent after the end, then a pause. */
async function receivesNothingMore(sockets: Watched[], b: Member, a: Member) {
  const before = sockets.map((s) => s.frames());
  await dmFrom(b, a, `after the end ${rid()}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(sockets.map((s) => s.frames())).toEqual(before);
}

async function sessionEndCloses(end: (a: Member, b: Member) => Promise<unknown>, as: (a: Member) => Promise<Member> = async (a) => a) {
  const { a, b, room } = await pair();
  const device = await as(a);
  const { inbox, dm } = await streams(device, room);
  const presence = await watched(device, "presence", "SMP~presence", "presence.snapshot");
  // Live before the end: a DM reaches both sockets.
  const text = `before ${rid()}`;
  expectOk(await dmFrom(b, a, text));
  await dm.next((e) => e.type === "chat.message" && e.message.message === text);
  await inbox.next((e) => e.type === "notification");
  await end(a, b);
  expect(await closedWithinASecond(inbox)).toBe(4001);
  expect(await closedWithinASecond(dm)).toBe(4001);
  expect(await closedWithinASecond(presence)).toBe(4001);
  // Each said so in band first (a close frame can arrive late or without its code): the browser acts on either.
  for (const socket of [inbox, dm, presence]) expect(socket.events.at(-1)).toEqual({ type: "session.ended" });
  await receivesNothingMore([inbox, dm, presence], b, a);
  return { a, b, room };
}

describe("a session's end closes its sockets within a second", () => {
  it("logout", async () => {
    await sessionEndCloses((a) => call("POST", "/private/core/sessions/expire", { as: a }).then(expectOk));
  });

  it("logout closes that session's sockets only", async () => {
    const { a, b, room } = await pair();
    const kept = await streams(await secondDevice(a), room);
    const ended = await streams(a, room);
    expectOk(await call("POST", "/private/core/sessions/expire", { as: a }));
    expect(await closedWithinASecond(ended.dm)).toBe(4001);
    expect(await closedWithinASecond(ended.inbox)).toBe(4001);
    const text = `still here ${rid()}`;
    expectOk(await dmFrom(b, a, text));
    await kept.dm.next((e) => e.type === "chat.message" && e.message.message === text);
    await kept.inbox.next((e) => e.type === "notification");
    kept.inbox.close();
    kept.dm.close();
  });

  it("password change (the other devices' sockets; the changing session keeps its own)", async () => {
    let keptDm: Watched | undefined;
    const { b } = await sessionEndCloses(
      async (a) => expectOk(await call("PUT", `/private/core/members/password/${a.memberId}`, { as: a, body: { oldPassword: a.password, newPassword: "a brand new password" } })),
      async (a) => {
        keptDm = await watched(a, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`, "welcome");
        return secondDevice(a);
      },
    );
    const text = `public after the change ${rid()}`;
    expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${b.memberId}`, { as: b, body: { message: text, requestId: rid() } }));
    await keptDm!.next((e) => e.type === "chat.message" && e.message.message === text);
    keptDm!.close();
  });

  it("password reset", async () => {
    await sessionEndCloses(async (a) => {
      expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: a.email } }));
      const mail = await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc").bind(a.email).first<{ body: string }>();
      const token = mail?.body.match(/token=([A-Za-z0-9]+)/)?.[1];
      expectOk(await call("POST", "/public/core/members/SMP/reset/password", { body: { token, newPassword: "reset to something new" } }));
    });
  });

  it("account deletion", async () => {
    await sessionEndCloses(async (a) => expectOk(await call("DELETE", `/private/core/members/${a.memberId}`, { as: a, body: { password: a.password } })));
  });

  it("a suspension is no session end: the member keeps reading, but a send on an open socket is refused and reaches no one", async () => {
    const { a, b, room } = await pair();
    const { inbox, dm } = await streams(a, room);
    const theirs = await watched(b, "chat-room", room, "welcome");
    await suspendMember(env, { projectCode: "SMP", memberId: a.memberId, until: Date.now() + 3_600_000, operatorId: null });
    const requestId = rid();
    dm.socket.send(JSON.stringify({ type: "chat.send", body: { message: "while suspended", requestId } }));
    await dm.next((e) => e.type === "error");
    expect(dm.events.filter((e) => e.type === "chat.ack")).toEqual([]);
    expect(await env.DB.prepare("select count(*) as n from chat_messages where request_id = ?").bind(requestId).first("n")).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(theirs.events.filter((e) => e.type === "chat.message")).toEqual([]);
    // Reading goes on (the §8 notice reaches the inbox): the sockets stay open.
    await inbox.next((e) => e.type === "notification");
    expect(dm.socket.readyState).toBe(WebSocket.OPEN);
    for (const socket of [inbox, dm, theirs]) socket.close();
  });

  it("a block closes the pair's one-to-one room for both, either way, and it does not reopen", async () => {
    for (const blockerIsA of [true, false]) {
      const { a, b, room } = await pair();
      const { inbox, dm } = await streams(a, room);
      const theirs = await watched(b, "chat-room", room, "welcome");
      if (blockerIsA) await block(a, b);
      else await block(b, a);
      expect(await closedWithinASecond(dm)).toBe(4403);
      expect(await closedWithinASecond(theirs)).toBe(4403);
      await receivesNothingMore([dm, theirs], b, a);
      expect(((await openSocket(a, "chat-room", room)) as Response).status).toBe(403);
      expect(((await openSocket(b, "chat-room", room)) as Response).status).toBe(403);
      // A block is not a session end: the inbox stays.
      expect(inbox.socket.readyState).toBe(WebSocket.OPEN);
      inbox.close();
    }
  });
});

describe("a socket whose session ended unnoticed", () => {
  it("gets no ack for a send, is closed, and nothing is stored", async () => {
    const { a, room } = await pair();
    const { inbox, dm } = await streams(a, room);
    // Ended in D1 only, as if the push to the rooms had been lost.
    await env.DB.prepare("update sessions set ended_at = ? where id = ?").bind(Date.now(), a.sessionId).run();
    const requestId = rid();
    dm.socket.send(JSON.stringify({ type: "chat.send", body: { message: "from a dead session", requestId } }));
    expect(await closedWithinASecond(dm)).toBe(4001);
    expect(dm.events.filter((e) => e.type === "chat.ack" || e.type === "error")).toEqual([]);
    expect(await env.DB.prepare("select count(*) as n from chat_messages where request_id = ?").bind(requestId).first("n")).toBe(0);
    inbox.socket.send(JSON.stringify({ type: "ping" }));
    expect(await closedWithinASecond(inbox)).toBe(4001);
  });

  it("closes at its session's expiry", async () => {
    const { a, room } = await pair();
    await env.DB.prepare("update sessions set expires_at = ? where id = ?").bind(Date.now() + 2500, a.sessionId).run();
    const { inbox, dm } = await streams(a, room);
    const presence = await watched(a, "presence", "SMP~presence", "presence.snapshot");
    for (const socket of [inbox, dm, presence]) {
      const event = await Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
      expect(event?.code).toBe(4001);
    }
  });
});

describe("one-to-one rooms open only canonically, to their two members, without a block", () => {
  it("refuses the reversed name, a third member, oneself twice and a block either way (403)", async () => {
    const [low, high] = [await signUp(), await signUp()].sort((x, y) => (x.memberNo < y.memberNo ? -1 : 1)) as [Member, Member];
    const third = await signUp();
    const status = async (who: Member, name: string) => {
      const opened = await openSocket(who, "chat-room", `SMP~${name}`);
      if (opened instanceof Response) return opened.status;
      opened.close();
      return 101;
    };
    expect(await status(low, `dm-${high.memberNo}-${low.memberNo}`)).toBe(403);
    expect(await status(third, `dm-${low.memberNo}-${high.memberNo}`)).toBe(403);
    expect(await status(low, `dm-${low.memberNo}-${low.memberNo}`)).toBe(403);
    // Never spoke: allowed, as a first private message would be (it waits in the requests tray).
    expect(await status(low, `dm-${low.memberNo}-${high.memberNo}`)).toBe(101);
    await block(high, low);
    expect(await status(low, `dm-${low.memberNo}-${high.memberNo}`)).toBe(403);
    expect(await status(high, `dm-${low.memberNo}-${high.memberNo}`)).toBe(403);
  });
});
