import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { signUp } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

describe("room sockets", () => {
  it("opens a chat room of the member's tenant with a socket ticket", async () => {
    const member = await signUp();
    const socket = (await openSocket(member, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
    expect(socket.socket).toBeTruthy();
    const welcome = await socket.next((e) => e.type === "welcome");
    expect(welcome.memberNo).toBe(member.memberNo);
    socket.close();
  });

  it("refuses no ticket, a room of another tenant, and another member's inbox", async () => {
    const member = await signUp();
    const other = await signUp();
    expect(((await openSocket(null, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as Response).status).toBe(401);
    expect(((await openSocket(member, "chat-room", `ABC~${PUBLIC_CHATROOM_ID}`)) as Response).status).toBe(403);
    expect(((await openSocket(member, "member-inbox", `SMP~${other.memberId}`)) as Response).status).toBe(403);
    const own = (await openSocket(member, "member-inbox", `SMP~${member.memberId}`)) as TestSocket;
    expect((await own.next()).type).toBe("welcome");
    own.close();
  });

  it("does not route plain HTTP or unknown parties to Durable Objects", async () => {
    const { fetchWorker } = await import("../support/client");
    expect((await fetchWorker(`/parties/chat-room/SMP~${PUBLIC_CHATROOM_ID}`)).status).toBe(404);
    expect((await fetchWorker("/parties/not-a-room/x", { headers: { Upgrade: "websocket" } })).status).toBe(404);
  });
});
