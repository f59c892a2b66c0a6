import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { ServerEvent } from "../contract/realtime";
import { identityOf, type RoomGate } from "./socket-auth";

/** One chatroom of one tenant (§7 Chat). Messages live in D1; this object fans them out. */
export class ChatRoom extends Server<Env> {
  static options = { hibernate: true };

  onConnect(connection: Connection, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(4401, "unauthorized");
    connection.setState({ memberNo: identity.memberNo });
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
  }
}

export const chatRoomGate: RoomGate = () => true;
