import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import { errors } from "../contract/errors";
import { ClientEvent, type ServerEvent } from "../contract/realtime";
import { SOCKET_CLOSE } from "../contract/session.constants";
import { presenceRules, presenceVisibleTo, writePresence, type PresenceRules } from "../features/chat/presence.service";
import { sessionHoldsSockets } from "../features/session/session.service";
import { armExpiry, closeExpired, closeSocket, endsSocket, stillLive } from "./session-sockets";
import type { SessionEnd } from "../lib/end-sessions";
import { identityOf, type RoomGate, type SocketIdentity, roomEnv } from "./socket-auth";
import { roomName } from "../lib/room-names";
import { SendWindow } from "./send-window";

type PresenceState = SocketIdentity & { rules: PresenceRules; since: number; sends: readonly number[]; left?: boolean };

/**
 * Who is online in one tenant (§4 Presence): online after a connect signal, offline on page unload or
 * when the member's last socket closes. Each member's chosen audience decides who hears about them.
 * D1 is written through, so "latest online" survives eviction.
 */
export class Presence extends Server<Env> {
  // The room's tenant's database, from its name (socket-auth.ts roomEnv).
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, roomEnv(ctx, env));
  }

  static options = { hibernate: true };

  /** Sockets accepted but not yet checked: an ended session closes them too (never hibernated meanwhile). */
  private pending = new Map<WebSocket, SocketIdentity>();

  async onConnect(connection: Connection<PresenceState>, ctx: ConnectionContext) {
    const identity = identityOf(ctx.request);
    if (!identity) return connection.close(SOCKET_CLOSE.unauthorized, "unauthorized");
    const at = Date.now();
    // The session is read again once the socket is findable here: a session ended meanwhile either closes it
    // (endSessions sees it pending) or is seen ended by this read.
    this.pending.set(connection, identity);
    let rules: PresenceRules;
    let live: boolean;
    try {
      [rules, live] = await Promise.all([presenceRules(this.env, identity.memberId), sessionHoldsSockets(this.env, identity.sessionId, identity.memberId)]);
    } finally {
      this.pending.delete(connection);
    }
    if (!live) return closeSocket(connection);
    if (connection.readyState !== WebSocket.OPEN) return;
    connection.setState({ ...identity, rules, since: at, sends: [] });
    await armExpiry(this.ctx.storage, identity.expiresAt);
    connection.send(JSON.stringify({ type: "welcome", memberNo: identity.memberNo, room: this.name } satisfies ServerEvent));
    const wasOnline = this.socketsOf(identity.memberId, connection.id) > 0;
    await writePresence(this.env, identity, true, at);
    // Snapshot of everyone online this member may see, then tell the others who may see them.
    const seen = new Map<string, { memberNo: string; online: boolean; lastSeen: string }>();
    for (const other of this.getConnections<PresenceState>()) {
      const s = other.state;
      if (!s || s.left || s.memberId === identity.memberId) continue;
      if (presenceVisibleTo(s.rules, identity.memberId, s.memberId) && !rules.blocked.includes(s.memberId)) {
        seen.set(s.memberNo, { memberNo: s.memberNo, online: true, lastSeen: new Date(s.since).toISOString() });
      }
    }
    connection.send(JSON.stringify({ type: "presence.snapshot", members: [...seen.values()] } satisfies ServerEvent));
    if (!wasOnline) this.announce(identity.memberId, identity.memberNo, rules, true, at);
  }

  async onMessage(connection: Connection<PresenceState>, raw: WSMessage) {
    const state = connection.state;
    if (!state) return;
    const window = new SendWindow(state.sends);
    const allowed = window.allow();
    connection.setState({ ...state, sends: window.times });
    if (!allowed) {
      connection.send(JSON.stringify({ type: "error", returnCode: errors.rateLimited.code, returnMessage: errors.rateLimited.message } satisfies ServerEvent));
      return;
    }
    if (!(await stillLive(this.env, connection, state))) return this.leaveIfGone(connection, state);
    const parsed = ClientEvent.safeParse(safeJson(raw));
    if (!parsed.success || parsed.data.type !== "presence.leave") return;
    // §4: offline on page unload, even before the socket finishes closing.
    connection.setState({ ...state, sends: window.times, left: true });
    await this.leave(state);
  }

  async onClose(connection: Connection<PresenceState>) {
    const state = connection.state;
    if (state && !state.left) await this.leave(state, connection.id);
  }

  /** A socket closed here (its session ended or expired): the member goes offline unless another socket remains. */
  private async leaveIfGone(connection: Connection<PresenceState>, state: PresenceState) {
    if (state.left) return;
    markLeft(connection, state);
    await this.leave(state, connection.id);
  }

  /** RPC from `endMemberSockets`: the ended sessions' presence sockets close, and the member goes offline if none is left. */
  async endSessions(end: SessionEnd) {
    const gone: PresenceState[] = [];
    for (const connection of this.getConnections<PresenceState>()) {
      const state = connection.state;
      if (!state || !endsSocket(end, state)) continue;
      markLeft(connection, state);
      closeSocket(connection);
      gone.push(state);
    }
    for (const [ws, identity] of this.pending) if (endsSocket(end, identity)) closeSocket(ws);
    await this.leaveAll(gone);
  }

  async onAlarm() {
    await this.leaveAll(await closeExpired(this.ctx.storage, this.getConnections<PresenceState>()));
  }

  /** Offline once per member whose last sockets just closed. */
  private async leaveAll(states: PresenceState[]) {
    const seen = new Set<string>();
    for (const state of states) {
      if (seen.has(state.memberId)) continue;
      seen.add(state.memberId);
      await this.leave(state);
    }
  }

  private async leave(state: PresenceState, closingId?: string) {
    if (this.socketsOf(state.memberId, closingId, true) > 0) return;
    const at = Date.now();
    await writePresence(this.env, state, false, at);
    this.announce(state.memberId, state.memberNo, state.rules, false, at);
  }

  /** Open sockets of a member, other than `except` (and, when asked, not counting those that said goodbye). */
  private socketsOf(memberId: string, except?: string, skipLeft = false) {
    let n = 0;
    for (const c of this.getConnections<PresenceState>()) {
      if (c.id === except || c.state?.memberId !== memberId) continue;
      if (skipLeft && c.state.left) continue;
      n++;
    }
    return n;
  }

  private announce(memberId: string, memberNo: string, rules: PresenceRules, online: boolean, at: number) {
    const event = JSON.stringify({ type: "presence.update", member: { memberNo, online, lastSeen: new Date(at).toISOString() } } satisfies ServerEvent);
    for (const c of this.getConnections<PresenceState>()) {
      const s = c.state;
      if (!s || s.memberId === memberId) continue;
      if (presenceVisibleTo(rules, s.memberId, memberId) && !s.rules.blocked.includes(memberId)) c.send(event);
    }
  }

  /** RPC after a member changes their audience (or blocks): recompute and resend snapshots. */
  async rulesChanged(memberId: string) {
    const rules = await presenceRules(this.env, memberId);
    for (const c of this.getConnections<PresenceState>()) {
      if (c.state?.memberId === memberId) c.setState({ ...c.state, rules });
    }
    for (const c of this.getConnections<PresenceState>()) {
      const viewer = c.state;
      if (!viewer || viewer.memberId === memberId) continue;
      const owner = [...this.getConnections<PresenceState>()].find((o) => o.state?.memberId === memberId && !o.state.left)?.state;
      if (!owner) continue;
      const visible = presenceVisibleTo(rules, viewer.memberId, memberId);
      // Those who may no longer see the member are told they went offline.
      c.send(JSON.stringify({ type: "presence.update", member: { memberNo: owner.memberNo, online: visible, lastSeen: new Date(owner.since).toISOString() } } satisfies ServerEvent));
    }
  }

  /** Online member numbers (test and diagnostics). */
  async onlineMembers() {
    return [...new Set([...this.getConnections<PresenceState>()].filter((c) => c.state && !c.state.left).map((c) => c.state!.memberNo))];
  }
}

/** Said goodbye: `onClose` (if it still fires) does not announce the member offline a second time. */
function markLeft(connection: Connection<PresenceState>, state: PresenceState) {
  try {
    connection.setState({ ...state, left: true });
  } catch {
    // Already closed: its state no longer matters.
  }
}

function safeJson(raw: WSMessage) {
  try {
    return JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw as ArrayBuffer));
  } catch {
    return null;
  }
}

export const presenceGate: RoomGate = (identity, lobby) => lobby.name === roomName(identity.projectCode, "presence");
