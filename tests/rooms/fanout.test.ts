import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectOk, signUp, signUpPoster } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

/**
 * One message to 100 sockets of one room: every socket receives it exactly once. Delivery times are
 * printed (p50/p99, from the accepted HTTP send to each socket's receipt) but never asserted: the machine
 * is shared and noisy, so `npm run bench` is where figures are compared against a bare room.
 */
describe("fan-out", () => {
  it("delivers one message to 100 sockets exactly once each", async () => {
    const holders = await Promise.all(Array.from({ length: 10 }, () => signUp()));
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 100; i++) {
      const socket = (await openSocket(holders[i % holders.length]!, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
      await socket.next((e) => e.type === "welcome");
      sockets.push(socket);
    }
    const sender = await signUpPoster();
    const rounds: number[][] = [];
    const accepted: number[] = [];
    for (let round = 0; round < 5; round++) {
      const text = `fanout ${round} ${Date.now()}`;
      const started = performance.now();
      const reply = call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${sender.memberId}`, { as: sender, body: { message: text, requestId: `fanout-${round}-${Date.now()}` } }).then((r) => {
        accepted.push(performance.now() - started);
        return r;
      });
      const arrivals = await Promise.all(sockets.map((s) => s.next((e) => e.type === "chat.message" && e.message.message === text, 20_000).then(() => performance.now() - started)));
      expectOk(await reply);
      rounds.push(arrivals);
      for (const s of sockets) expect(s.events.filter((e) => e.type === "chat.message" && e.message.message === text)).toHaveLength(1);
    }
    const all = rounds.flat().sort((a, b) => a - b);
    const pct = (p: number) => all[Math.min(all.length - 1, Math.floor((p / 100) * all.length))]!.toFixed(1);
    const acceptedSorted = accepted.sort((a, b) => a - b);
    console.log(`chat POST accepted in p50 ${acceptedSorted[Math.floor(acceptedSorted.length / 2)]!.toFixed(1)} ms`);
    console.log(`fan-out to ${sockets.length} sockets, ${rounds.length} messages: delivery p50 ${pct(50)} ms, p99 ${pct(99)} ms (send → receipt, HTTP write included)`);
    for (const s of sockets) s.close();
  }, 120_000);
});
