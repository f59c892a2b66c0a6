import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import { sql } from "drizzle-orm";
import { getDb } from "../db/client";
import { errors } from "../contract/errors";
import { ClientEvent, type ServerEvent } from "../contract/realtime";
import { SOCKET_CLOSE } from "../contract/session.constants";
import { AppError } from "../lib/app-error";
import { roomKind } from "../features/chat/chat-access";
import type { Fanout } from "../features/chat/chat-messages";
import { sendMessage } from "../features/chat/chat-send";
import { sessionHoldsSockets } from "../features/session/session.service";
import { visibleTarget } from "../features/members/members";
import { listMessages } from "../features/chat/chat-page";
import { publishMessage } from "../features/chat/chat-publish";
import { viewMessage, viewThread, type StoredMessage, type StoredThread } from "../features/chat/chat-view";
import { withheldMessage, withheldThread } from "../features/members/muted-words";
import { viewerFor } from "../features/members/profile-summary";
import { strangerBlurs } from "../features/members/stranger-media";
import { renditionsOf, roomImageKeyOf, withBlurredImage } from "../features/chat/room-image-blur";
import { armExpiry, closeExpired, closeSocket, endsSocket, stillLive } from "./session-sockets";
import type { SessionEnd } from "../lib/end-sessions";
import { identityOf, type RoomGate, type SocketIdentity, roomEnv } from "./socket-auth";
import { roomName, roomTenant, ROOM_NAME_SEPARATOR } from "../lib/room-names";
import { SendWindow } from "./send-window";
import { inD1Session, sessionEnv } from "../db/d1-session";

/** Small, hibernation-safe per-connection state (serialized with the socket). */
/** `replayedUpTo`: the newest id a reconnecting client got by replay; live copies of older new messages are dropped. */
/** `canSeeAvatars`, `safeMode`: which avatars this member gets (§6; README Decisions on renditions), as at connect. */
/** `strangerMedia`: whose media stays blurred for this member (stranger-media.ts), as at connect; whom they follow is read per fan-out. */
type ChatConnState = SocketIdentity & { canSeeAvatars: boolean; safeMode?: boolean; strangerMedia?: "notFollowed" | "everyone"; sends: readonly number[]; replayedUpTo?: number };

/** Replay after a reconnect is bounded; a client further behind reloads the list. */
const REPLAY_LIMIT = 200;

const chatroomIdOf = (name: string) => name.slice(name.indexOf(ROOM_NAME_SEPARATOR) + 1);

/**
 * One chatroom of one tenant (§7 Chat). Messages live in D1; this object fans them out per viewer:
 * private messages in full only to sender and recipient (§6), nothing to members blocked with the sender.
 * A client that reconnects with `?since=<last seen id>` receives exactly the messages it missed, once.
 */
export class ChatRoom extends Server<Env> {
  // The room's tenant's database, from its name (socket-auth.ts roomEnv).
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, roomEnv(ctx, env));
  }

  static options = { hibernate: true };

  /** Connections still receiving their replay: live events wait here so nothing is sent twice or lost. */
  private catchingUp = new Map<string, ServerEvent[]>();

  /** Socket → its state (null: not set yet; undefined: not one of this room's connections). See `audience`. */
  private states = new WeakMap<WebSocket, ChatConnState | null | undefined>();

  /** Sockets accepted but not yet registered and checked: an ended session closes them too (never hibernated). */
  private pending = new Map<WebSocket, SocketIdentity>();

  async onConnect(connection: Connection<ChatConnState>, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(SOCKET_CLOSE.unauthorized, "unauthorized");
    // Registered with the member's inbox first, then the session read again: a session ended meanwhile either finds
    // this socket through the inbox (endSessions) or is seen ended here (README Decisions "Sockets end with their session").
    this.pending.set(connection, identity);
    let viewer: Awaited<ReturnType<typeof viewerFor>>;
    let live: boolean;
    try {
      const inbox = this.env.MemberInbox.get(this.env.MemberInbox.idFromName(roomName(identity.projectCode, identity.memberId)));
      await inbox.registerRoom(this.name, identity.sessionId, identity.expiresAt);
      [viewer, live] = await Promise.all([viewerFor(this.env, identity.memberId), sessionHoldsSockets(this.env, identity.sessionId, identity.memberId)]);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "room socket registration failed", error: String(error) }));
      return closeSocket(connection, 1011, "try again");
    } finally {
      this.pending.delete(connection);
    }
    if (!live || identity.expiresAt <= Date.now()) return closeSocket(connection);
    if (connection.readyState !== WebSocket.OPEN) return;
    this.setStateOf(connection, {
      ...identity,
      canSeeAvatars: Boolean(viewer?.canSeeAvatars),
      safeMode: Boolean(viewer?.safeMode),
      ...(viewer?.strangerMedia ? { strangerMedia: viewer.strangerMedia.mode } : {}),
      sends: [],
    });
    await armExpiry(this.ctx.storage, identity.expiresAt);
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
    const since = new URL(ctx.request.url).searchParams.get("since");
    if (since === null || !/^\d{1,15}$/.test(since)) return;
    this.catchingUp.set(connection.id, []);
    let lastId = Number(since);
    const sent = new Set<number>();
    try {
      const missed = await listMessages(this.env, identity.projectCode, chatroomIdOf(this.name), identity, { pageSize: REPLAY_LIMIT, after: lastId });
      for (const message of missed) {
        connection.send(JSON.stringify({ type: "chat.message", message, replay: true } satisfies ServerEvent));
        sent.add(message.idChatroomMessage);
        lastId = Math.max(lastId, message.idChatroomMessage);
      }
    } finally {
      const buffered = this.catchingUp.get(connection.id) ?? [];
      this.catchingUp.delete(connection.id);
      for (const event of buffered) {
        if (event.type === "chat.message" && sent.has(event.message.idChatroomMessage)) continue;
        if (event.type === "chat.message") lastId = Math.max(lastId, event.message.idChatroomMessage);
        connection.send(JSON.stringify(event));
      }
      // A message written to D1 before the replay read but published after it would otherwise arrive twice
      // (found by the soak's eviction phase): ids are assigned in commit order, so anything up to lastId was replayed.
      if (connection.state) this.setStateOf(connection, { ...connection.state, replayedUpTo: lastId });
      connection.send(JSON.stringify({ type: "chat.synced", lastId } satisfies ServerEvent));
    }
  }

  async onMessage(connection: Connection<ChatConnState>, raw: WSMessage) {
    const state = connection.state;
    if (!state) return;
    const window = new SendWindow(state.sends);
    if (!window.allow()) {
      this.setStateOf(connection, { ...state, sends: window.times });
      return this.sendTo(connection, { type: "error", returnCode: errors.rateLimited.code, returnMessage: errors.rateLimited.message });
    }
    this.setStateOf(connection, { ...state, sends: window.times });
    // Nothing a socket sends is acted on unless its session is still live (a dead one is closed, 4001).
    if (!(await stillLive(this.env, connection, state))) return;
    let event: ClientEvent;
    try {
      event = ClientEvent.parse(JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw as ArrayBuffer)));
    } catch {
      return this.sendTo(connection, { type: "error", returnCode: errors.badRequest.code, returnMessage: errors.badRequest.message });
    }
    if (event.type !== "chat.send") return;
    try {
      const { success } = await this.env.RL_WRITE.limit({ key: `chat:${state.memberId}` });
      if (!success) throw new AppError("rateLimited");
      // In a D1 session of its own (a write: first at the primary), so the ack can hand back the write's bookmark.
      const { result, bookmark } = await inD1Session(this.env.DB, "first-primary", () => sendMessage(sessionEnv(this.env), { ...state }, chatroomIdOf(this.name), event.body));
      this.sendTo(connection, { type: "chat.ack", requestId: event.body.requestId, message: result.message, ...(bookmark ? { bookmark } : {}) });
      if (result.fanout) await publishMessage(this.env, state.projectCode, result.fanout);
    } catch (error) {
      const entry = error instanceof AppError ? error.entry : errors.internal;
      if (!(error instanceof AppError)) console.error(JSON.stringify({ level: "error", message: "socket send failed", error: String(error) }));
      this.sendTo(connection, { type: "error", returnCode: entry.code, returnMessage: entry.message, requestId: event.body.requestId });
    }
  }

  /** The replay buffer of a connection still catching up (the id is read only while some connection is). */
  private bufferOf(connection: Connection) {
    return this.catchingUp.size ? this.catchingUp.get(connection.id) : undefined;
  }

  private sendTo(connection: Connection, event: ServerEvent) {
    const buffer = this.bufferOf(connection);
    if (buffer) buffer.push(event);
    else connection.send(JSON.stringify(event));
  }

  private viewerOf(state: ChatConnState, follows?: ReadonlyMap<string, ReadonlySet<string>>) {
    const strangerMedia = state.strangerMedia ? { mode: state.strangerMedia, follows: follows?.get(state.memberId) ?? new Set<string>() } : undefined;
    return { memberId: state.memberId, memberNo: state.memberNo, canSeeAvatars: state.canSeeAvatars, safeMode: Boolean(state.safeMode), strangerMedia, lastReadId: 0 };
  }

  /**
   * For sockets whose member blurs members they do not follow: which of `cardMembers` each follows, in one D1 read,
   * only when such a socket is here (the follow list is not kept in the socket: it changes, and attachments are small).
   */
  private async strangerFollows(cardMembers: (string | null)[]): Promise<ReadonlyMap<string, ReadonlySet<string>> | undefined> {
    const readers = new Set<string>();
    for (const [, state] of this.audience()) if (state?.strangerMedia === "notFollowed") readers.add(state.memberId);
    const targets = cardMembers.filter((id): id is string => Boolean(id));
    if (!readers.size || !targets.length) return undefined;
    const rows = await getDb(this.env).all<{ reader: string; target: string }>(
      sql`select member_id as reader, target_member_id as target from follows
        where member_id in (select value from json_each(${JSON.stringify([...readers])})) and target_member_id in (select value from json_each(${JSON.stringify(targets)}))`,
    );
    const follows = new Map<string, Set<string>>();
    for (const row of rows) follows.set(row.reader, (follows.get(row.reader) ?? new Set()).add(row.target));
    return follows;
  }

  /** Is some socket here under a stranger-media rule (so a public image may need its rendition)? */
  private anyStrangerRule() {
    for (const [, state] of this.audience()) if (state?.strangerMedia) return true;
    return false;
  }

  /** The part of a view's key the stranger rule decides: which of the cards this socket gets blurred. */
  private strangerKey(state: ChatConnState, follows: ReadonlyMap<string, ReadonlySet<string>> | undefined, cardMembers: (string | null)[]) {
    if (!state.strangerMedia) return "";
    const viewer = this.viewerOf(state, follows);
    return cardMembers.map((id) => (id && strangerBlurs(viewer, id) ? "1" : "0")).join("");
  }

  /** RPC: a new or edited message, already in D1. */
  async publishMessage(fanout: Fanout, kind: "new" | "edited") {
    const hidden = new Set(fanout.hiddenFrom);
    const muted = new Set(fanout.mutedFor ?? []);
    const { memberId: sender, toMemberId: recipient } = fanout.stored;
    const cards = [sender, recipient];
    const follows = await this.strangerFollows(cards);
    // A public image reaches readers whose setting covers the sender as its rendition (room-image-blur.ts), read
    // only when such a socket is here.
    const imageKey = roomImageKeyOf(fanout.stored.payload);
    const rendition = imageKey && this.anyStrangerRule() ? ((await renditionsOf(this.env, [imageKey])).get(imageKey) ?? null) : null;
    // Most sockets see the same view: render and serialize once per distinct view, not once per socket.
    const rendered = new Map<string, string>();
    for (const [connection, state] of this.audience()) {
      if (!state || hidden.has(state.memberId)) continue;
      if (kind === "new" && state.replayedUpTo !== undefined && fanout.stored.idChatroomMessage <= state.replayedUpTo) continue;
      const party = state.memberId === sender || state.memberId === recipient ? state.memberId : "";
      // README Decisions "Muted words": a member whose muted words are in the text gets it withheld (never the sender).
      const withheld = state.memberId !== sender && muted.has(state.memberId);
      const key = `${party}|${state.canSeeAvatars ? "avatars" : "hidden"}|${state.safeMode ? "safe" : ""}|${this.strangerKey(state, follows, cards)}|${withheld ? "muted" : ""}`;
      let text = rendered.get(key);
      if (!text) {
        const viewer = this.viewerOf(state, follows);
        const seen = viewMessage(fanout.stored, viewer);
        const view = imageKey && seen.payload && strangerBlurs(viewer, sender) ? withBlurredImage(seen, rendition) : seen;
        const message = withheld ? withheldMessage(view) : view;
        text = JSON.stringify(kind === "new" ? { type: "chat.message", message } : { type: "chat.edited", message });
        rendered.set(key, text);
      }
      const buffer = this.bufferOf(connection);
      if (buffer) buffer.push(JSON.parse(text) as ServerEvent);
      else connection.send(text);
    }
  }

  async publishDeleted(chatroomId: string, idChatroomMessage: number) {
    const event = JSON.stringify({ type: "chat.deleted", chatroomId, idChatroomMessage } satisfies ServerEvent);
    for (const [connection] of this.audience()) {
      const buffer = this.bufferOf(connection);
      if (buffer) buffer.push(JSON.parse(event));
      else connection.send(event);
    }
  }

  async publishReaction(stored: StoredMessage) {
    for (const [connection, state] of this.audience()) {
      if (!state) continue;
      const view = viewMessage(stored, this.viewerOf(state));
      if (view.placeholder) continue;
      this.sendTo(connection, { type: "chat.reaction", chatroomId: stored.chatroomId, idChatroomMessage: stored.idChatroomMessage, replyPayload: view.replyPayload });
    }
  }

  async publishThread(parent: StoredMessage, thread: StoredThread, threadCount: number, hiddenFrom: string[], mutedFor: string[] = []) {
    const hidden = new Set(hiddenFrom);
    const follows = await this.strangerFollows([thread.memberId]);
    const muted = new Set(mutedFor);
    for (const [connection, state] of this.audience()) {
      if (!state || hidden.has(state.memberId)) continue;
      if (viewMessage(parent, this.viewerOf(state)).placeholder) continue;
      this.sendTo(connection, {
        type: "chat.thread",
        chatroomId: parent.chatroomId,
        idChatroomMessage: parent.idChatroomMessage,
        threadCount,
        thread: state.memberId !== thread.memberId && muted.has(state.memberId) ? withheldThread(viewThread(thread, this.viewerOf(state, follows))) : viewThread(thread, this.viewerOf(state, follows)),
      });
    }
  }

  async publishReload(chatroomId: string) {
    for (const [connection] of this.audience()) this.sendTo(connection, { type: "chat.reload", chatroomId });
  }

  /** RPC from the member's inbox when sessions end: their sockets here close (4001). */
  async endSessions(end: SessionEnd) {
    for (const [connection, state] of this.audience()) if (endsSocket(end, state)) closeSocket(connection);
    for (const [ws, identity] of this.pending) if (endsSocket(end, identity)) closeSocket(ws);
  }

  /** RPC after a block: the pair's one-to-one room closes for both (4403, not reopened: the gate refuses it). */
  async closeMembers(memberIds: string[]) {
    const members = new Set(memberIds);
    const close = (ws: WebSocket) => closeSocket(ws, SOCKET_CLOSE.roomClosed, "room closed");
    for (const [connection, state] of this.audience()) if (state && members.has(state.memberId)) close(connection);
    for (const [ws, identity] of this.pending) if (members.has(identity.memberId)) close(ws);
  }

  /** A socket lives no longer than its session. */
  async onAlarm() {
    await closeExpired(this.ctx.storage, this.getConnections<ChatConnState>());
  }

  /** §7 chatroom-member count: distinct members with an open socket here. */
  async memberCount() {
    const members = new Set<string>();
    for (const [, state] of this.audience()) if (state) members.add(state.memberNo);
    return members.size;
  }

  /**
   * Each open socket with its state. partyserver's own iteration deserializes every socket's attachment on every
   * pass (a sixth of the CPU per message to 100 sockets, profiled in the bench); here a socket's state is read once
   * while this object is awake and kept in step by `setStateOf`. After a wake-up (or for sockets new to this pass)
   * one partyserver pass wraps the sockets, which then are the connections themselves.
   */
  private *audience(): Generator<[Connection<ChatConnState>, ChatConnState | null]> {
    const sockets = this.ctx.getWebSockets();
    if (sockets.some((ws) => !this.states.has(ws))) {
      for (const connection of this.getConnections<ChatConnState>()) if (!this.states.has(connection)) this.states.set(connection, connection.state ?? null);
      // Sockets partyserver skips (closing, not its own) are skipped here too, without asking again each pass.
      for (const ws of sockets) if (!this.states.has(ws)) this.states.set(ws, undefined);
    }
    for (const ws of sockets) {
      const state = this.states.get(ws);
      if (state !== undefined && ws.readyState === WebSocket.OPEN) yield [ws as Connection<ChatConnState>, state];
    }
  }

  /** The one way a connection's state changes here, so `audience` never reads a stale copy. */
  private setStateOf(connection: Connection<ChatConnState>, state: ChatConnState) {
    connection.setState(state);
    this.states.set(connection, state);
  }
}

/**
 * Shared rooms are open to every member of the tenant. A one-to-one room only by its canonical name
 * (`dm-<low>-<high>`, README Decisions "Chat rooms"), only to its two members, and only while the other could be sent
 * a private message: a member of the tenant, not deleted, no block either way (`visibleTarget`). Whether the other
 * takes messages directly or through the requests tray does not matter: a stranger's message waits in the tray.
 */
export const chatRoomGate: RoomGate = async (identity, lobby, env) => {
  if (!roomTenant(lobby.name)) return false;
  try {
    const room = roomKind(chatroomIdOf(lobby.name));
    if (room.kind !== "direct") return true;
    const [a, b] = room.memberNos;
    const other = a === identity.memberNo ? b : b === identity.memberNo ? a : null;
    if (!other) return false;
    await visibleTarget(env, identity.projectCode, other, identity);
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
};
