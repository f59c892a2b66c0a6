import { routePartykitRequest } from "partyserver";
import { ChatRoom, chatRoomGate } from "./chat-room";
import { MemberInbox, memberInboxGate } from "./member-inbox";
import { Presence, presenceGate } from "./presence";
import { authorizeSocket, withSocketProtocol } from "./socket-auth";

export { ChatRoom, MemberInbox, Presence };

const gates = { ChatRoom: chatRoomGate, Presence: presenceGate, MemberInbox: memberInboxGate };

/** `/parties/<party>/<name>`: only the room bindings are reachable, each behind its gate. */
const PARTIES = new Set(["chat-room", "presence", "member-inbox"]);

export async function routeRoomRequest(request: Request, env: Env) {
  const party = new URL(request.url).pathname.split("/")[2] ?? "";
  if (!PARTIES.has(party)) return null;
  const rooms = { ChatRoom: env.ChatRoom, Presence: env.Presence, MemberInbox: env.MemberInbox } as unknown as Env;
  const response = await routePartykitRequest(request, rooms, {
    onBeforeConnect: (req, lobby) => authorizeSocket(req, lobby, env, gates),
    // Plain HTTP to a room is never allowed from outside: the API reaches rooms by RPC.
    onBeforeRequest: () => new Response("Not found", { status: 404 }),
  });
  return response && withSocketProtocol(response);
}
