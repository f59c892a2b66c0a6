import { directChatroomId } from "../contract/chat";
import { roomName } from "./room-names";

/*
 * The one way API code takes sockets down (README Decisions "Sockets end with their session"). HTTP code reaches the
 * rooms only by these typed RPCs; rooms never import routes. Plain stubs by name: the rooms need no onStart.
 */

/**
 * Which sockets an ended session (or a changed password) takes down: the member's, of one session, or of every
 * session but one (the one that changed the password). README Decisions "Sockets end with their session".
 */
export type SessionEnd = { memberId: string; sessionId?: string; exceptSessionId?: string };

const stub = <T extends Rpc.DurableObjectBranded>(namespace: DurableObjectNamespace<T>, name: string) => namespace.get(namespace.idFromName(name));

async function settle(what: string, work: Promise<unknown>[]) {
  for (const result of await Promise.allSettled(work)) {
    if (result.status === "rejected") console.warn(JSON.stringify({ level: "warn", message: `socket close failed: ${what}`, error: String(result.reason) }));
  }
}

/**
 * Closes, at once, the sockets of a member's ended session(s): the member's inbox sockets, every room socket
 * (public and one-to-one; the member's MemberInbox keeps the list of rooms each session opened) and presence.
 * Call it AFTER the sessions are ended in D1: a socket connecting meanwhile re-checks D1 once registered.
 * `sessionId`: only that session (logout); `exceptSessionId`: every session but that one (password change);
 * neither: every session (reset, deletion, suspension). Best effort: a failure is logged, and the socket's next
 * message (checked against D1) or its session's expiry still ends it.
 */
export async function endMemberSockets(env: Env, projectCode: string, memberId: string, which: { sessionId?: string; exceptSessionId?: string } = {}) {
  const end: SessionEnd = { memberId, ...which };
  await settle("session", [
    stub(env.MemberInbox, roomName(projectCode, memberId)).endSessions(end),
    stub(env.Presence, roomName(projectCode, "presence")).endSessions(end),
  ]);
}

/** A block closes the pair's one-to-one room for both of them (presence is refreshed by `refreshPresence`). */
export async function closeDirectRoom(env: Env, projectCode: string, a: { memberId: string; memberNo: string }, b: { memberId: string; memberNo: string }) {
  const name = roomName(projectCode, directChatroomId(a.memberNo, b.memberNo));
  await settle("block", [stub(env.ChatRoom, name).closeMembers([a.memberId, b.memberId])]);
}
