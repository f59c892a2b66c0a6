import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { UnreadCounts } from "../contract/chat";
import type { NotificationItem } from "../contract/notifications";
import type { ServerEvent } from "../contract/realtime";
import { SOCKET_CLOSE } from "../contract/session.constants";
import { latestNotificationId, unreadCounts } from "../features/chat/chat-inbox";
import { armExpiry, closeExpired, closeSocket, endsSession, endsSocket, stillLive } from "./session-sockets";
import type { SessionEnd } from "../lib/end-sessions";
import { identityOf, type RoomGate, type SocketIdentity, roomEnv } from "./socket-auth";
import { roomName } from "../lib/room-names";

/** Storage key of one room the member's sessions hold sockets in: session id → that session's expiry (ms). */
const ROOM_KEY = "room:";
type RoomSessions = Record<string, number>;

/**
 * One member's notification stream and unread counts (green and orange dots). Only its owner may connect.
 * Counts come from D1 on connect, then are pushed whenever a message or notification changes them.
 * It also keeps which rooms the member's sessions hold sockets in, so ending a session reaches every one of them
 * (README Decisions "Sockets end with their session").
 */
export class MemberInbox extends Server<Env> {
  // The room's tenant's database, from its name (socket-auth.ts roomEnv).
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, roomEnv(ctx, env));
  }

  static options = { hibernate: true };

  async onConnect(connection: Connection<SocketIdentity>, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(SOCKET_CLOSE.unauthorized, "unauthorized");
    connection.setState(identity);
    await armExpiry(this.ctx.storage, identity.expiresAt);
    // Checked again once accepted: a session ended between the ticket check and now finds this socket either here
    // (endSessions) or ended in D1 (this read).
    const [live, counts, latest] = await Promise.all([
      stillLive(this.env, connection, identity),
      unreadCounts(this.env, identity),
      latestNotificationId(this.env, identity.memberId),
    ]);
    if (!live) return;
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
    connection.send(JSON.stringify({ type: "inbox.counts", counts, latestNotificationId: latest } satisfies ServerEvent));
  }

  /** The inbox takes no commands; any frame still proves the session or closes the socket. */
  async onMessage(connection: Connection<SocketIdentity>) {
    if (connection.state) await stillLive(this.env, connection, connection.state);
  }

  async onAlarm() {
    await closeExpired(this.ctx.storage, this.getConnections<SocketIdentity>());
  }

  /**
   * RPC from `notify()`: the row is already in D1; push it to every open tab of the member. Answers how many
   * sockets are open (hibernated ones included): with none, `notify()` sends a web push instead.
   */
  async deliver(item: NotificationItem): Promise<number> {
    this.broadcast(JSON.stringify({ type: "notification", item } satisfies ServerEvent));
    return [...this.getConnections()].length;
  }

  /** RPC from chat: fresh unread counts after a message, a read or a deletion. */
  async pushCounts(counts: UnreadCounts, latest: number) {
    this.broadcast(JSON.stringify({ type: "inbox.counts", counts, latestNotificationId: latest } satisfies ServerEvent));
  }

  /** RPC from a ChatRoom on connect: this member's session now holds a socket in `room` (a room name). */
  async registerRoom(room: string, sessionId: string, expiresAt: number) {
    const key = ROOM_KEY + room;
    const sessions = pruned((await this.ctx.storage.get<RoomSessions>(key)) ?? {});
    sessions[sessionId] = expiresAt;
    await this.ctx.storage.put(key, sessions);
  }

  /**
   * RPC from `endMemberSockets`: closes this member's inbox sockets of the ended session(s), then has every room
   * those sessions opened close theirs. Rooms left with no live session of the member are forgotten.
   */
  async endSessions(end: SessionEnd) {
    for (const connection of this.getConnections<SocketIdentity>()) if (endsSocket(end, connection.state)) closeSocket(connection);
    const rooms = [...(await this.ctx.storage.list<RoomSessions>({ prefix: ROOM_KEY }))].map(([key, registered]) => {
      const sessions = pruned(registered);
      return { key, sessions, ended: Object.keys(sessions).filter((sessionId) => endsSession(end, sessionId)) };
    });
    const results = await Promise.allSettled(
      rooms.map(({ key, ended }) => (ended.length ? this.env.ChatRoom.get(this.env.ChatRoom.idFromName(key.slice(ROOM_KEY.length))).endSessions(end) : null)),
    );
    // A room that did not answer keeps its sessions listed, so the next end of a session tries it again.
    const writes: Record<string, RoomSessions> = {};
    const gone: string[] = [];
    rooms.forEach(({ key, sessions, ended }, i) => {
      if (results[i]!.status === "fulfilled") for (const sessionId of ended) delete sessions[sessionId];
      if (Object.keys(sessions).length) writes[key] = sessions;
      else gone.push(key);
    });
    for (const chunk of chunks(Object.keys(writes))) await this.ctx.storage.put(Object.fromEntries(chunk.map((key) => [key, writes[key]])));
    for (const chunk of chunks(gone)) await this.ctx.storage.delete(chunk);
    const failed = results.filter((r) => r.status === "rejected").length;
    if (failed) throw new Error(`${failed} room(s) did not close their sockets`);
  }
}

/** Durable Object storage takes at most 128 keys per call. */
function chunks<T>(items: T[], size = 128): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Sessions past their expiry hold no sockets any more (their rooms closed them at expiry). */
function pruned(sessions: RoomSessions): RoomSessions {
  const at = Date.now();
  return Object.fromEntries(Object.entries(sessions).filter(([, expiresAt]) => expiresAt > at));
}

export const memberInboxGate: RoomGate = (identity, lobby) => lobby.name === roomName(identity.projectCode, identity.memberId);
