import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { publishMessage } from "../../worker/features/chat/chat-publish";
import { sendMessage } from "../../worker/features/chat/chat-send";
import { fetchWorker, call, expectOk, signUp } from "../support/client";
import { socketHeaders } from "../support/socket";
import { dressUp } from "../support/route-matrix";

/**
 * Exactly-once delivery across a reconnect: the API writes a message to D1, then publishes it.
 * A client reconnecting with `since` in between gets it by replay — and must not get the late live copy too.
 * (The soak's eviction phase found this race; this test pins it down deterministically.)
 */
describe("reconnect replay", () => {
  it("delivers a message written before the replay and published after it exactly once", async () => {
    const [author, reader] = [await dressUp(await signUp()), await dressUp(await signUp())];
    const room = "b".repeat(32);
    const first = expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${author.memberId}`, { as: author, body: { message: "first", requestId: `rt-first-${author.memberNo}` } }));

    // Written to D1, not yet published: exactly the window between the API's write and its fan-out.
    const { fanout } = await sendMessage(env, { memberId: author.memberId, memberNo: author.memberNo, projectCode: "SMP", kycStatus: 0 } as never, room, {
      message: "in the window",
      requestId: `rt-window-${author.memberNo}`,
      isPrivate: false,
    } as never);
    expect(fanout).toBeTruthy();
    const id = fanout!.stored.idChatroomMessage;

    const ticket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: reader, body: { audience: "socket" } })).ticket;
    const response = await fetchWorker(`/parties/chat-room/SMP~${room}?since=${first.idChatroomMessage}`, { headers: socketHeaders(ticket) });
    expect(response.status).toBe(101);
    const socket = response.webSocket!;
    socket.accept();
    const events: any[] = [];
    socket.addEventListener("message", (m) => events.push(JSON.parse(String(m.data))));
    const started = Date.now();
    while (!events.some((e) => e.type === "chat.synced") && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(events.filter((e) => e.type === "chat.message" && e.message.idChatroomMessage === id).map((e) => Boolean(e.replay))).toEqual([true]);

    // The late fan-out arrives now: the client already has it.
    await publishMessage(env, "SMP", fanout!);
    const later = expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${author.memberId}`, { as: author, body: { message: "after", requestId: `rt-after-${author.memberNo}` } }));
    const wait = Date.now();
    while (!events.some((e) => e.type === "chat.message" && e.message.idChatroomMessage === later.idChatroomMessage) && Date.now() - wait < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(events.filter((e) => e.type === "chat.message" && e.message.idChatroomMessage === id)).toHaveLength(1);
    expect(events.filter((e) => e.type === "chat.message" && e.message.idChatroomMessage === later.idChatroomMessage)).toHaveLength(1);
    socket.close();
  });
});
