import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HOME_CHATROOM_ID, PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { errors } from "../../worker/contract/errors";
import { SUSPENDED_INDEFINITELY } from "../../worker/contract/moderation.constants";
import { personalChatroomId } from "../../worker/features/members/personal-room";
import { suspendMember } from "../../worker/features/moderation/moderation.service";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { eventually, notificationRows, setKyc } from "./social-support";

/**
 * §5/§6/§8 posting rules (worker/features/members/posting-rules.ts), each rule on each surface: the §8 text in the
 * body (HTTP) or the error frame (socket), and nothing stored, broadcast or paid.
 */
let seq = 0;
const rid = () => `pr-${Date.now().toString(36)}-${++seq}`;
const n = async (sql: string, ...binds: unknown[]) => Number(await env.DB.prepare(sql).bind(...binds).first("n"));
const setProfile = (m: Member, set: string) => env.DB.prepare(`update profiles set ${set} where member_id = ?`).bind(m.memberId).run();

/** The states that may not post, each with the code it answers (§8) and how to put a member in it. */
const rules: { name: string; code: string; make: (m: Member) => Promise<unknown> }[] = [
  { name: "no avatar", code: "403204", make: (m) => setProfile(m, "avator = '', avator_blur = '', qualify = 0") },
  { name: "an unqualified avatar", code: "403205", make: (m) => setProfile(m, "qualify = 0") },
  { name: "a blurred avatar", code: "403205", make: (m) => setProfile(m, "blur = 1") },
  {
    name: "a posting pause",
    code: "403208",
    make: (m) => suspendMember(env as unknown as Env, { projectCode: "SMP", memberId: m.memberId, until: Date.now() + 3_600_000, operatorId: null }),
  },
  { name: "a report block", code: "403209", make: (m) => setProfile(m, "blocked = 1") },
];

/** Everything a refused attempt could have changed, summed: rows by the member, coins, the note's thread count. */
async function footprint(m: Member, note: { idChatroomMessage: number; author: Member }) {
  return [
    await n("select count(*) as n from chat_messages where member_id = ?", m.memberId),
    await n("select count(*) as n from chat_threads where member_id = ?", m.memberId),
    await n("select count(*) as n from guestbook_entries where author_member_id = ?", m.memberId),
    await n("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ?", note.author.memberId),
    await n("select thread_count as n from chat_messages where id_chatroom_message = ?", note.idChatroomMessage),
    await n("select coalesce(last_chat_at, 0) as n from profiles where member_id = ?", m.memberId),
  ];
}

const expectRefused = (body: Record<string, unknown>, code: string) => {
  const entry = Object.values(errors).find((e) => e.code === code)!;
  expect(body).toMatchObject({ returnCode: code, returnMessage: entry.message });
  expect(body.info).toBeUndefined();
};

describe("posting rules over HTTP", () => {
  for (const rule of rules) {
    it(`${rule.name}: ${rule.code} on public chat, home chat, personal room, threads, guestbook and leave message; nothing stored`, async () => {
      const author = await signUpPoster();
      const member = await signUpPoster();
      await setKyc(author, 1);
      await setKyc(member, 1);
      const note = { ...expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { as: author, body: { message: "a note", requestId: rid() } })), author };
      // The member wrote before (so a guestbook reply is allowed by the other rules) and then falls under the rule.
      expectOk(await call("POST", `/private/core/leave-message`, { as: author, body: { code: member.memberNo, text: "hello" } }));
      await rule.make(member);
      const before = await footprint(member, note);
      const attempts = [
        call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { as: member, body: { message: "public", requestId: rid() } }),
        call("POST", `/private/sns/chatrooms/${HOME_CHATROOM_ID}/messages/${member.memberId}`, { as: member, body: { message: "home", requestId: rid() } }),
        call("POST", `/private/sns/chatrooms/${personalChatroomId(author.memberNo)}/messages/${member.memberId}`, { as: member, body: { message: "photo comment", requestId: rid() } }),
        call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { as: member, body: { message: "mention", toMemberNo: author.memberNo, requestId: rid() } }),
        call("POST", `/private/sns/chatroom/messages/threads/${member.memberId}`, { as: member, body: { idChatroomMessage: note.idChatroomMessage, message: "reply" } }),
        call("POST", `/private/core/guestbooks/${author.memberNo}`, { as: member, body: { message: "guestbook reply" } }),
        call("POST", `/private/core/leave-message`, { as: member, body: { code: author.memberNo, text: "leave message" } }),
      ];
      for (const reply of await Promise.all(attempts)) expectRefused(expectFailure(reply, 403, rule.code), rule.code);
      expect(await footprint(member, note)).toEqual(before);
      // A one-to-one room takes only the sending rules: the avatar rules do not apply there.
      const dm = await call("POST", `/private/sns/chatrooms/${directChatroomId(member.memberNo, author.memberNo)}/messages/${member.memberId}`, { as: member, body: { message: "dm", requestId: rid() } });
      if (rule.code === "403208" || rule.code === "403209") expectRefused(expectFailure(dm, 403, rule.code), rule.code);
      else expectOk(dm);
    });
  }

  it("a private reply without an avatar gets the §8 private-reply warning (chat and threads)", async () => {
    const author = await signUpPoster();
    const member = await signUp();
    const note = expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { as: author, body: { message: "n", requestId: rid() } }));
    const chat = await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { as: member, body: { message: "p", isPrivate: true, toMemberNo: author.memberNo, requestId: rid() } });
    expectRefused(expectFailure(chat, 403, "403207"), "403207");
    const thread = await call("POST", `/private/sns/chatroom/messages/threads/${member.memberId}`, { as: member, body: { idChatroomMessage: note.idChatroomMessage, message: "p", isPrivate: true } });
    expectRefused(expectFailure(thread, 403, "403207"), "403207");
    expect(await n("select count(*) as n from chat_messages where member_id = ?", member.memberId)).toBe(0);
  });

  it("a member whose avatar qualifies posts everywhere; posting-status says what the composer shows", async () => {
    const member = await signUp();
    const status = expectOk(await call("GET", "/private/core/posting-status", { as: member }));
    expect(status).toEqual({
      post: { returnCode: "403204", returnMessage: errors.noAvatar.message },
      send: null,
      nicknameMissing: true,
      avatar: "missing",
      suspended: false,
      suspendedUntil: null,
      suspendedIndefinitely: false,
    });
    await setProfile(member, "avator = '/media/SMP/x/avatar/a.jpg', qualify = 0");
    expect(expectOk(await call("GET", "/private/core/posting-status", { as: member }))).toMatchObject({ post: { returnCode: "403205" }, avatar: "unqualified" });
    await setProfile(member, "qualify = 1, nickname = 'Ready'");
    expect(expectOk(await call("GET", "/private/core/posting-status", { as: member }))).toMatchObject({ post: null, send: null, nicknameMissing: false, avatar: "ok" });
    expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { as: member, body: { message: "now I can", requestId: rid() } }));
    expectFailure(await call("GET", "/private/core/posting-status"), 401);
  });
});

describe("posting rules over the socket", () => {
  for (const rule of rules) {
    for (const [room, id] of [["public", PUBLIC_CHATROOM_ID], ["home", HOME_CHATROOM_ID]] as const) {
      it(`${rule.name} in the ${room} room: an error frame with ${rule.code}, no ack, no broadcast, nothing stored`, async () => {
        const member = await signUpPoster();
        const listener = await signUpPoster();
        await rule.make(member);
        const mine = (await openSocket(member, "chat-room", `SMP~${id}`)) as TestSocket;
        const theirs = (await openSocket(listener, "chat-room", `SMP~${id}`)) as TestSocket;
        await mine.next((e) => e.type === "welcome");
        await theirs.next((e) => e.type === "welcome");
        const requestId = rid();
        mine.socket.send(JSON.stringify({ type: "chat.send", body: { message: "over the socket", requestId } }));
        const frame = await mine.next((e) => e.type === "error");
        const entry = Object.values(errors).find((e) => e.code === rule.code)!;
        expect(frame).toEqual({ type: "error", returnCode: rule.code, returnMessage: entry.message, requestId });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(mine.events.filter((e) => e.type === "chat.ack" || e.type === "chat.message")).toEqual([]);
        expect(theirs.events.filter((e) => e.type === "chat.message")).toEqual([]);
        expect(await n("select count(*) as n from chat_messages where request_id = ?", requestId)).toBe(0);
        mine.close();
        theirs.close();
      });
    }
  }
});

describe("a posting pause is told to the member", () => {
  it("a notification names the end, and posting-status gives the composer banner its date", async () => {
    const member = await signUpPoster();
    const until = Date.now() + 2 * 3_600_000;
    await suspendMember(env as unknown as Env, { projectCode: "SMP", memberId: member.memberId, until, operatorId: null });
    const [row] = await eventually(() => notificationRows(member, "moderation"), (rows) => rows.length >= 1);
    expect(JSON.parse(row!.params)).toMatchObject({ outcome: "suspended", until: new Date(until).toISOString() });
    const listed = expectOk(await call("GET", "/private/core/notifications?pageSize=20", { as: member }));
    expect(JSON.stringify(listed)).toContain(new Date(until).toISOString());
    expect(expectOk(await call("GET", "/private/core/posting-status", { as: member }))).toMatchObject({
      post: { returnCode: "403208", returnMessage: "Posting blocked temporarily" },
      send: { returnCode: "403208" },
      suspended: true,
      suspendedUntil: new Date(until).toISOString(),
      suspendedIndefinitely: false,
    });
    await env.DB.prepare("update members set suspended_until = ? where id = ?").bind(SUSPENDED_INDEFINITELY, member.memberId).run();
    expect(expectOk(await call("GET", "/private/core/posting-status", { as: member }))).toMatchObject({ suspended: true, suspendedUntil: null, suspendedIndefinitely: true });
    // It lifts by itself: a pause that ended is no refusal.
    await env.DB.prepare("update members set suspended_until = ? where id = ?").bind(Date.now() - 1, member.memberId).run();
    expect(expectOk(await call("GET", "/private/core/posting-status", { as: member }))).toMatchObject({ post: null, suspended: false });
  });
});
