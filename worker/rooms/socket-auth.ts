import type { Lobby } from "partyserver";
import { errors } from "../contract/errors";
import { SOCKET_PROTOCOL, SOCKET_TICKET_PREFIX } from "../contract/session.constants";
import { memberFromTicket } from "../features/session/session.service";
import type { SessionMember } from "../lib/session-member";
import { roomTenant } from "../lib/room-names";
import { tenantEnv, tenantsWithOwnDatabase } from "../db/router";

/** Trusted identity header the worker sets after verifying the ticket. Clients can never set it. */
export const IDENTITY_HEADER = "x-velvet-member";

/**
 * A room's env: `DB` is its tenant's database (db/router.ts, README Decisions "A tenant per database"), known
 * from the room's name (rooms are addressed by name, so `ctx.id.name` is set). Each room class passes its env
 * through this in its constructor.
 */
export function roomEnv(ctx: DurableObjectState, env: Env): Env {
  const tenant = roomTenant(ctx.id.name ?? "");
  // Fail closed: with any tenant on a database of its own, a room that cannot name its tenant must not fall back to
  // the shared database (it could be that tenant's room). With one database there is nothing to choose.
  if (!/^[A-Za-z]{3}$/.test(tenant) && tenantsWithOwnDatabase(env).length) throw new Error("room without a tenant in its name");
  return tenantEnv(env, tenant);
}

/**
 * Who holds a socket, and through which session: `sessionId` lets the session's end close it, `expiresAt` (ms) bounds
 * its lifetime (README Decisions "Sockets end with their session").
 */
export type SocketIdentity = Pick<SessionMember, "memberId" | "memberNo" | "projectCode" | "kycStatus" | "sessionId"> & { expiresAt: number };

/** Which member may open which room; each room module adds its rule (refused with 403 before the room wakes). */
export type RoomGate = (identity: SocketIdentity, lobby: Lobby<Env>, env: Env) => boolean | Promise<boolean>;

/**
 * The ticket offered in `Sec-WebSocket-Protocol` (browsers can set no other header on a socket). A ticket in the
 * query string is not read: it would sit in access logs and browser history.
 */
export function ticketOf(request: Request): string | null {
  const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
  if (!offered.includes(SOCKET_PROTOCOL)) return null;
  const ticket = offered.find((p) => p.startsWith(SOCKET_TICKET_PREFIX))?.slice(SOCKET_TICKET_PREFIX.length);
  return ticket || null;
}

/**
 * The 101 names the one protocol we speak (a browser fails a socket whose answer names none it offered); the
 * ticket is never echoed.
 */
export function withSocketProtocol(response: Response): Response {
  if (response.status !== 101 || !response.webSocket) return response;
  const headers = new Headers(response.headers);
  headers.set("Sec-WebSocket-Protocol", SOCKET_PROTOCOL);
  return new Response(null, { status: 101, webSocket: response.webSocket, headers });
}

/**
 * Runs before every upgrade: strips client-supplied identity and partyserver props, verifies the
 * short-lived socket ticket (`Sec-WebSocket-Protocol`), checks the tenant and the room's own gate.
 */
export async function authorizeSocket(request: Request, lobby: Lobby<Env>, env: Env, gates: Partial<Record<string, RoomGate>>) {
  const headers = new Headers(request.headers);
  headers.delete(IDENTITY_HEADER);
  headers.delete("x-partykit-props");
  const ticket = ticketOf(request);
  const member = ticket ? await memberFromTicket(env, ticket, "socket") : null;
  // A suspended member's session still answers the API (§8 'report blocked…'), but holds no live streams.
  if (member?.status !== "active") return new Response("Unauthorized", { status: 401 });
  // Connect storms per member (RL_WRITE, own key): 429 in the §7 envelope before any room is woken.
  const allowed = env.RL_WRITE ? (await env.RL_WRITE.limit({ key: `socket:${member.memberId}` })).success : true;
  if (!allowed) {
    const { code, message } = errors.rateLimited;
    return Response.json({ returnCode: code, returnMessage: message, requestId: "" }, { status: 429 });
  }
  const identity: SocketIdentity = {
    memberId: member.memberId,
    memberNo: member.memberNo,
    projectCode: member.projectCode,
    kycStatus: member.kycStatus,
    sessionId: member.sessionId,
    expiresAt: member.expiresAt,
  };
  const gate = gates[lobby.className];
  if (roomTenant(lobby.name) !== member.projectCode || !gate || !(await gate(identity, lobby, env))) {
    return new Response("Forbidden", { status: 403 });
  }
  headers.set(IDENTITY_HEADER, JSON.stringify(identity));
  return new Request(request, { headers });
}

export function identityOf(request: Request): SocketIdentity | null {
  const raw = request.headers.get(IDENTITY_HEADER);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SocketIdentity;
  } catch {
    return null;
  }
}
