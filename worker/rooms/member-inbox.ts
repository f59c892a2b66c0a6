import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { UnreadCounts } from "../contract/chat";
import type { NotificationItem } from "../contract/notifications";
import type { ServerEvent } from "../contract/realtime";
import { latestNotificationId, unreadCounts } from "../features/chat/chat.service";
import { identityOf, roomName, type RoomGate } from "./socket-auth";

/**
 * One member's notification stream and unread counts (green and orange dots). Only its owner may connect.
 * Counts come from D1 on connect, then are pushed whenever a message or notification changes them.
 */
export class MemberInbox extends Server<Env> {
  static options = { hibernate: true };

  async onConnect(connection: Connection, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(4401, "unauthorized");
    connection.setState({ memberNo: identity.memberNo, memberId: identity.memberId });
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
    const counts = await unreadCounts(this.env, identity);
    const latest = await latestNotificationId(this.env, identity.memberId);
    connection.send(JSON.stringify({ type: "inbox.counts", counts, latestNotificationId: latest } satisfies ServerEvent));
  }

  /** RPC from `notify()`: the row is already in D1; push it to every open tab of the member. */
  async deliver(item: NotificationItem) {
    this.broadcast(JSON.stringify({ type: "notification", item } satisfies ServerEvent));
  }

  /** RPC from chat: fresh unread counts after a message, a read or a deletion. */
  async pushCounts(counts: UnreadCounts, latest: number) {
    this.broadcast(JSON.stringify({ type: "inbox.counts", counts, latestNotificationId: latest } satisfies ServerEvent));
  }
}

export const memberInboxGate: RoomGate = (identity, lobby) => lobby.name === roomName(identity.projectCode, identity.memberId);
