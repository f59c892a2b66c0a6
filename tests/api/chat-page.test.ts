import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectOk, signUp, type Member } from "../support/client";
import { privateImage } from "../support/route-matrix";

// A chat page is written by SQLite (worker/features/chat/chat-page-sql.ts) while one message is made by `viewMessage`
// (chat-view.ts; also what the room pushes). These tests hold the two views of every message equal, per viewer.

let seq = 0;
const rid = () => `page-${Date.now().toString(36)}-${++seq}`;
const post = (m: Member, body: Record<string, unknown>, room = PUBLIC_CHATROOM_ID) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { requestId: rid(), ...body } });

/** A qualified avatar and its blurred rendition (README Decisions on renditions), as an upload stores them. */
async function withAvatar(m: Member, kyc = 0) {
  await env.DB.prepare("update profiles set avator = ?, avator_blur = ?, qualify = 1, kyc_status = ?, nickname = ? where member_id = ?")
    .bind(`/media/SMP/${m.memberNo}/avatar/a.jpg`, `/media/SMP/${m.memberNo}/blur/b.jpg`, kyc, `nick${m.memberNo}`, m.memberId)
    .run();
  return m;
}

type Viewer = { name: string; member: Member | null };

async function page(viewer: Viewer, room: string) {
  const path = viewer.member ? `/private/sns/chatroom/${room}/messages?pageSize=50` : `/public/sns/chatroom/${room}/messages?pageSize=50&project=SMP`;
  return expectOk(await call("GET", path, { as: viewer.member })) as Record<string, unknown>[];
}

async function detail(viewer: Viewer, id: unknown) {
  const path = viewer.member ? `/private/sns/chatroom/messages/${id}` : `/public/sns/chatroom/messages/${id}?project=SMP`;
  const { threads: _threads, ...message } = expectOk(await call("GET", path, { as: viewer.member })) as Record<string, unknown>;
  return message;
}

async function expectPageMatchesDetails(viewer: Viewer, room: string, expected: number) {
  const listed = await page(viewer, room);
  expect(listed.length, `${viewer.name} sees ${expected} messages`).toBe(expected);
  for (const message of listed) expect(message, `${viewer.name}: message ${message.idChatroomMessage}`).toEqual(await detail(viewer, message.idChatroomMessage));
  return listed;
}

describe("a chat page as SQLite writes it", () => {
  it("equals viewMessage for the sender, the recipient, a third member, a member without an avatar, a safe-mode member and a visitor", async () => {
    const a = await withAvatar(await signUp(), 1);
    const b = await withAvatar(await signUp());
    const d = await withAvatar(await signUp());
    // Posting needs a qualifying avatar (§5/§6): noAvatar and d post first, then lose it or are blurred.
    const noAvatar = await withAvatar(await signUp());
    const safe = await withAvatar(await signUp());
    await env.DB.prepare("update profiles set safe_mode = 1 where member_id = ?").bind(safe.memberId).run();
    const text = expectOk(await post(a, { message: "hello room" }));
    expectOk(await post(a, { message: "", payload: { type: "img", src: `/media/SMP/${a.memberNo}/photo/x.jpg` } }));
    expectOk(await post(a, { message: "just for b", isPrivate: true, toMemberNo: b.memberNo }));
    expectOk(await post(d, { message: "@b public mention", toMemberNo: b.memberNo }));
    expectOk(await post(noAvatar, { message: "no face yet" }));
    await env.DB.prepare("update profiles set avator = '', avator_blur = '', qualify = 0 where member_id = ?").bind(noAvatar.memberId).run();
    // d's avatar is `blur`: everyone but d gets its rendition.
    await env.DB.prepare("update profiles set blur = 1 where member_id = ?").bind(d.memberId).run();
    expectOk(await call("PUT", `/private/sns/chatroom/messages/${b.memberId}/${text.idChatroomMessage}/react`, { as: b, body: { replyPayload: { reactEmoji: "🔥" } } }));
    // A payload stored outside the §3 shapes reads as none in both views.
    await env.DB.prepare("update chat_messages set payload = 'not json' where id_chatroom_message = ?").bind(text.idChatroomMessage).run();

    const viewers: Viewer[] = [
      { name: "sender", member: a },
      { name: "recipient", member: b },
      { name: "third member", member: d },
      { name: "member without avatar", member: noAvatar },
      { name: "safe-mode member", member: safe },
      { name: "visitor", member: null },
    ];
    for (const viewer of viewers) await expectPageMatchesDetails(viewer, PUBLIC_CHATROOM_ID, 5);
    // Visitors and safe-mode members get renditions only; everyone but d gets d's rendition.
    const rendition = (m: Member) => ({ avator: `/media/SMP/${m.memberNo}/blur/b.jpg`, blur: true });
    for (const viewer of [safe, null]) {
      const cards = (await page({ name: "renditions", member: viewer }, PUBLIC_CHATROOM_ID)).map((m) => m.profile as Record<string, unknown>);
      expect(cards[0], viewer ? "safe" : "visitor").toMatchObject(rendition(a));
      expect(cards[3], viewer ? "safe" : "visitor").toMatchObject(rendition(d));
      expect(JSON.stringify(cards)).not.toContain("/avatar/");
    }
    const forB = await page({ name: "recipient", member: b }, PUBLIC_CHATROOM_ID);
    expect(forB[0]!.profile).toMatchObject({ avator: `/media/SMP/${a.memberNo}/avatar/a.jpg`, blur: false });
    expect(forB[3]!.profile).toMatchObject(rendition(d));
    expect((await page({ name: "d", member: d }, PUBLIC_CHATROOM_ID))[3]!.profile).toMatchObject({ avator: `/media/SMP/${d.memberNo}/avatar/a.jpg`, blur: true });

    const [, , privateForB] = await page({ name: "third member", member: d }, PUBLIC_CHATROOM_ID);
    expect(privateForB).toMatchObject({ placeholder: true, payload: null, requestId: "" });
    const [own] = await page({ name: "sender", member: a }, PUBLIC_CHATROOM_ID);
    expect(own).toMatchObject({ payload: null, replyPayload: [{ type: "emoji", reactEmoji: "🔥", memberNo: b.memberNo }] });
    expect(own!.requestId).not.toBe("");
    const seenWithoutAvatar = await page({ name: "member without avatar", member: noAvatar }, PUBLIC_CHATROOM_ID);
    expect(seenWithoutAvatar[0]!.profile).toMatchObject({ avator: "", blur: true });
    expect(seenWithoutAvatar[4]!.profile).toMatchObject({ simpleCode: noAvatar.memberNo, blur: false });
  });

  it("equals viewMessage in a one-to-one conversation, read positions included", async () => {
    const a = await withAvatar(await signUp(), 1);
    const b = await withAvatar(await signUp());
    const room = directChatroomId(a.memberNo, b.memberNo);
    const first = expectOk(await post(a, { message: "first" }, room));
    expectOk(await post(a, { message: "", payload: { type: "img", src: await privateImage(a) } }, room));
    expectOk(await post(b, { message: "reply" }, room));
    expectOk(await call("PUT", `/private/sns/chatroom/${room}/read`, { as: b, body: { idChatroomMessage: first.idChatroomMessage } }));
    const forB = await expectPageMatchesDetails({ name: "recipient", member: b }, room, 3);
    expect(forB.map((m) => m.read)).toEqual([true, false, true]);
    await expectPageMatchesDetails({ name: "sender", member: a }, room, 3);
  });
});
