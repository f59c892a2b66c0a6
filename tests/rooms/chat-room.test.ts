import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

const room = `SMP~${PUBLIC_CHATROOM_ID}`;
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${++seq}`;

async function say(member: Member, text: string, extra: Record<string, unknown> = {}, chatroomId = PUBLIC_CHATROOM_ID) {
  return expectOk(await call("POST", `/private/sns/chatrooms/${chatroomId}/messages/${member.memberId}`, { as: member, body: { message: text, requestId: rid(), ...extra } }));
}

async function withAvatar(member: Member) {
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, nickname = ? where member_id = ?").bind(`/media/SMP/${member.memberNo}/avatar/a.jpg`, `nick${member.memberNo}`, member.memberId).run();
  return member;
}

const messageEvent = (text: string) => (e: any) => e.type === "chat.message" && e.message.message === text;

describe("ChatRoom over real WebSockets", () => {
  it("two members see each other's messages in order", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const sa = (await openSocket(a, "chat-room", room)) as TestSocket;
    const sb = (await openSocket(b, "chat-room", room)) as TestSocket;
    await sa.next((e) => e.type === "welcome");
    await sb.next((e) => e.type === "welcome");
    const texts = ["one from A", "two from B", "three from A"];
    await say(a, texts[0]!);
    await say(b, texts[1]!);
    await say(a, texts[2]!);
    for (const socket of [sa, sb]) {
      const got = [];
      for (const text of texts) got.push((await socket.next(messageEvent(text))).message);
      expect(got.map((m) => m.message)).toEqual(texts);
      expect(got[0].idChatroomMessage).toBeLessThan(got[1].idChatroomMessage);
      expect(got[1].idChatroomMessage).toBeLessThan(got[2].idChatroomMessage);
      expect(got[0].dateAdd).toMatch(/Z$/);
    }
    sa.close();
    sb.close();
  });

  it("a third member sees only the placeholder of a private message", async () => {
    const [a, b, c] = [await withAvatar(await signUp()), await signUp(), await signUp()];
    // b takes private messages from everyone, so nothing is held as a request.
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: b, body: { acceptFrom: "everyone" } }));
    const sockets = await Promise.all([a, b, c].map(async (m) => (await openSocket(m, "chat-room", room)) as TestSocket));
    await Promise.all(sockets.map((s) => s.next((e) => e.type === "welcome")));
    const secret = `secret for b ${Date.now()}`;
    await say(a, secret, { isPrivate: true, toMemberNo: b.memberNo });
    const [sa, sb, sc] = sockets as [TestSocket, TestSocket, TestSocket];
    expect((await sa.next(messageEvent(secret))).message.placeholder).toBe(false);
    expect((await sb.next(messageEvent(secret))).message.toMemberNo).toBe(b.memberNo);
    const seenByC = await sc.next((e) => e.type === "chat.message" && e.message.memberNo === a.memberNo);
    expect(seenByC.message.message).toBe("private message");
    expect(seenByC.message.placeholder).toBe(true);
    expect(JSON.stringify(sc.events)).not.toContain(secret);
    // The list says the same.
    const listed = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20`, { as: c }));
    expect(JSON.stringify(listed)).not.toContain(secret);
    const listedB = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20`, { as: b }));
    expect(JSON.stringify(listedB)).toContain(secret);
    for (const s of sockets) s.close();
  });

  it("a reconnect with the last seen id receives each missed message exactly once", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const first = (await openSocket(b, "chat-room", room)) as TestSocket;
    const seen = await say(a, "before the drop");
    await first.next(messageEvent("before the drop"));
    first.close();
    const missed = ["missed 1", "missed 2", "missed 3"];
    for (const text of missed) await say(a, text);
    const again = (await openSocket(b, "chat-room", room, `&since=${seen.idChatroomMessage}`)) as TestSocket;
    const synced = await again.next((e) => e.type === "chat.synced");
    // Sent while the replay may still run: must arrive once too.
    await say(a, "after reconnect");
    await again.next(messageEvent("after reconnect"));
    const texts = again.events.filter((e) => e.type === "chat.message").map((e) => e.message.message);
    expect(texts).toEqual([...missed, "after reconnect"]);
    expect(synced.lastId).toBeGreaterThan(seen.idChatroomMessage);
    again.close();
  });

  it("keeps serving after the room object is evicted, without losing messages", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const s1 = (await openSocket(b, "chat-room", room)) as TestSocket;
    const m1 = await say(a, "before eviction");
    await s1.next(messageEvent("before eviction"));
    s1.close();
    // Abort the object: in-memory state is gone, D1 and the sockets' serialized state are all that remain.
    const namespace = env.ChatRoom as unknown as DurableObjectNamespace;
    const stub = namespace.get(namespace.idFromName(room));
    await runInDurableObject(stub, (instance: any, state) => {
      expect(instance).toBeTruthy();
      state.abort?.("evicted by test");
    }).catch(() => {});
    await say(a, "while evicted");
    const s2 = (await openSocket(b, "chat-room", room, `&since=${m1.idChatroomMessage}`)) as TestSocket;
    await s2.next(messageEvent("while evicted"));
    await say(a, "after eviction");
    await s2.next(messageEvent("after eviction"));
    s2.close();
  });

  it("a repeated requestId stores one message and broadcasts it once", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const sb = (await openSocket(b, "chat-room", room)) as TestSocket;
    await sb.next((e) => e.type === "welcome");
    const requestId = rid();
    const path = `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${a.memberId}`;
    const [r1, r2] = await Promise.all([
      call("POST", path, { as: a, body: { message: "only once", requestId } }),
      call("POST", path, { as: a, body: { message: "only once", requestId } }),
    ]);
    const [i1, i2] = [expectOk(r1), expectOk(r2)];
    expect(i1.idChatroomMessage).toBe(i2.idChatroomMessage);
    const rows = await env.DB.prepare("select count(*) as n from chat_messages where member_id = ? and request_id = ?").bind(a.memberId, requestId).first<{ n: number }>();
    expect(rows?.n).toBe(1);
    await sb.next(messageEvent("only once"));
    await say(a, "marker");
    await sb.next(messageEvent("marker"));
    expect(sb.events.filter(messageEvent("only once"))).toHaveLength(1);
    sb.close();
  });

  it("sends over the socket with an ack, and limits sends per connection", async () => {
    const a = await signUpPoster();
    const sa = (await openSocket(a, "chat-room", room)) as TestSocket;
    await sa.next((e) => e.type === "welcome");
    sa.socket.send(JSON.stringify({ type: "chat.send", body: { message: "via socket", requestId: rid() } }));
    const ack = await sa.next((e) => e.type === "chat.ack");
    expect(ack.message.message).toBe("via socket");
    for (let i = 0; i < 12; i++) sa.socket.send(JSON.stringify({ type: "ping" }));
    const limited = await sa.next((e) => e.type === "error" && e.returnCode === "429000");
    expect(limited.returnMessage).toMatch(/Too many/);
    sa.close();
  });

  it("never delivers a blocked member's messages, and a one-to-one room admits only its two members", async () => {
    const [a, b, c] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(b.memberId, a.memberId, Date.now()).run();
    const sb = (await openSocket(b, "chat-room", room)) as TestSocket;
    await sb.next((e) => e.type === "welcome");
    await say(a, "blocked speaks");
    await say(c, "c speaks");
    await sb.next(messageEvent("c speaks"));
    expect(sb.events.some(messageEvent("blocked speaks"))).toBe(false);
    sb.close();
    const dm = directChatroomId(a.memberNo, c.memberNo);
    expect(((await openSocket(b, "chat-room", `SMP~${dm}`)) as Response).status).toBe(403);
    const sc = (await openSocket(c, "chat-room", `SMP~${dm}`)) as TestSocket;
    expect((await sc.next()).type).toBe("welcome");
    sc.close();
  });
});
