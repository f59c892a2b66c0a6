/** Zod-free part of ./session.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

export const SESSION_COOKIE = "velvet_session";
export const LANGUAGE_COOKIE = "velvet_language";

/**
 * Sockets carry their ticket in `Sec-WebSocket-Protocol`, never in the URL (logs, history): the client offers
 * [SOCKET_PROTOCOL, SOCKET_TICKET_PREFIX + ticket] and the server answers the 101 with SOCKET_PROTOCOL alone.
 */
export const SOCKET_PROTOCOL = "velvet.v1";
export const SOCKET_TICKET_PREFIX = "velvet.ticket.";
export const socketProtocols = (ticket: string) => [SOCKET_PROTOCOL, `${SOCKET_TICKET_PREFIX}${ticket}`];

/**
 * Close codes a room socket ends with that the browser must not answer by reconnecting (README Decisions "Sockets
 * end with their session"): `sessionEnded` — the session behind the socket ended, expired or may hold no sockets
 * (log in again); `roomClosed` — the room is no longer open to this member (a block); `unauthorized` — no identity.
 */
export const SOCKET_CLOSE = { sessionEnded: 4001, roomClosed: 4403, unauthorized: 4401 } as const;
export const SOCKET_FINAL_CLOSE_CODES: readonly number[] = Object.values(SOCKET_CLOSE);
