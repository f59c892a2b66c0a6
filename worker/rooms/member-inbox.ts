import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { NotificationItem } from "../contract/notifications";
import type { ServerEvent } from "../contract/realtime";
import { identityOf, roomName, type RoomGate } from "./socket-auth";

/** One member's notification stream and unread counts. Only its owner may connect. */
export class MemberInbox extends Server<Env> {
  static options = { hibernate: true };

  onConnect(connection: Connection, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(4401, "unauthorized");
    connection.setState({ memberNo: identity.memberNo });
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
  }

  /** RPC from `notify()`: the row is already in D1; push it to every open tab of the member. */
  async deliver(item: NotificationItem) {
    this.broadcast(JSON.stringify({ type: "notification", item } satisfies ServerEvent));
  }
}

export const memberInboxGate: RoomGate = (identity, lobby) => lobby.name === roomName(identity.projectCode, identity.memberId);
