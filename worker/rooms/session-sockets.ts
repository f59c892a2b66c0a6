import type { Connection } from "partyserver";
import { SOCKET_CLOSE } from "../contract/session.constants";
import type { ServerEvent } from "../contract/realtime";
import { sessionHoldsSockets } from "../features/session/session.service";
import type { SocketIdentity } from "./socket-auth";
import type { SessionEnd } from "../lib/end-sessions";


type Identified = Partial<Pick<SocketIdentity, "memberId" | "sessionId" | "expiresAt">>;

/** A socket from before sockets carried their session matches every end of its member's sessions. */
export function endsSocket(end: SessionEnd, state: Identified | null | undefined): boolean {
  if (!state || state.memberId !== end.memberId) return false;
  if (!state.sessionId) return true;
  if (end.sessionId && state.sessionId !== end.sessionId) return false;
  return !(end.exceptSessionId && state.sessionId === end.exceptSessionId);
}

/** Same rule for a session id a room registered (MemberInbox's room list). */
export const endsSession = (end: SessionEnd, sessionId: string) => endsSocket(end, { memberId: end.memberId, sessionId });

/**
 * Closes with a code the browser treats as "log in again" and does not reconnect on. A session's end is also sent as
 * a last frame first (contract: `session.ended`), which the browser acts on without waiting for the close.
 */
export function closeSocket(connection: WebSocket, code: number = SOCKET_CLOSE.sessionEnded, reason = "session ended") {
  try {
    if (code === SOCKET_CLOSE.sessionEnded) connection.send(JSON.stringify({ type: "session.ended" } satisfies ServerEvent));
    connection.close(code, reason);
  } catch {
    // Already closing: nothing more to send it.
  }
}

/**
 * Before a socket's message is acted on: its session must still be live, unexpired and its member active. A socket
 * from before sockets carried their session is asked to reconnect (1012) and gets a fresh ticket.
 */
export async function stillLive(env: Env, connection: Connection, state: Identified): Promise<boolean> {
  if (!state.sessionId || !state.memberId) {
    closeSocket(connection, 1012, "reconnect");
    return false;
  }
  if ((state.expiresAt ?? 0) > Date.now() && (await sessionHoldsSockets(env, state.sessionId, state.memberId))) return true;
  closeSocket(connection);
  return false;
}

/** A socket lives no longer than its session: the object's alarm is at the earliest expiry among its sockets. */
export async function armExpiry(storage: DurableObjectStorage, expiresAt: number) {
  const current = await storage.getAlarm();
  if (current === null || current > expiresAt) await storage.setAlarm(expiresAt);
}

/** Alarm: closes sockets whose session expired and sets the alarm for the next expiry. Returns the closed states. */
export async function closeExpired<S extends Identified>(storage: DurableObjectStorage, connections: Iterable<Connection<S>>): Promise<S[]> {
  const at = Date.now();
  let next = Infinity;
  const closed: S[] = [];
  for (const connection of connections) {
    const state = connection.state;
    if (!state?.expiresAt) continue;
    if (state.expiresAt <= at) {
      closed.push(state as S);
      closeSocket(connection);
    } else next = Math.min(next, state.expiresAt);
  }
  if (next < Infinity) await storage.setAlarm(next);
  return closed;
}
