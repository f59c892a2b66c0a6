import { getServerByName } from "partyserver";
import { directChatroomId } from "../../contract/chat";
import { roomName } from "../../lib/room-names";
import type { Fanout } from "./chat-messages";
import type { StoredThread } from "./chat-view";
import { latestNotificationId, unreadCounts } from "./chat-inbox";
import { membersMuting, storedText } from "../members/muted-words";

/**
 * After D1 holds the change, the rooms fan it out (architecture: D1 first, then the room by RPC).
 * A failed push is logged, never turned into a failed request: clients catch up on reconnect.
 */
async function safely(what: string, work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: `room push failed: ${what}`, error: String(error) }));
  }
}

// A plain stub by name: ChatRoom has no onStart and knows its name from ctx.id.name, so partyserver's
// getServerByName (which first sends setName, one more round trip to the room) is not needed for a push.
const room = (env: Env, projectCode: string, chatroomId: string) => env.ChatRoom.get(env.ChatRoom.idFromName(roomName(projectCode, chatroomId)));

/** Rooms a message belongs to: its own, plus the pair's one-to-one room for an inbox message. */
function roomsOf(stored: Fanout["stored"]) {
  const rooms = [stored.chatroomId];
  if (stored.toMemberId && stored.toMemberNo) {
    const direct = directChatroomId(stored.memberNo, stored.toMemberNo);
    if (direct !== stored.chatroomId) rooms.push(direct);
  }
  return rooms;
}

/**
 * Members whose muted words are in the text: the rooms send them the item without it (README Decisions "Muted words").
 * Null when they cannot be named (a failed or capped lookup).
 */
async function mutedFor(env: Env, projectCode: string, text: string, authorId: string) {
  try {
    return await membersMuting(env, projectCode, text, authorId);
  } catch (error) {
    // Fail closed for the muted: without the list, every socket gets a reload and reads its own page.
    console.warn(JSON.stringify({ level: "warn", message: "muted words lookup failed", error: String(error) }));
    return null;
  }
}

export async function publishMessage(env: Env, projectCode: string, fanout: Fanout, kind: "new" | "edited" = "new") {
  const muted = await mutedFor(env, projectCode, storedText(fanout.stored), fanout.stored.memberId);
  if (!muted) {
    for (const id of roomsOf(fanout.stored)) await publishReload(env, projectCode, id);
    return;
  }
  const withMuted = { ...fanout, mutedFor: muted };
  for (const id of roomsOf(fanout.stored)) await safely("message", async () => room(env, projectCode, id).publishMessage(withMuted, kind));
  if (fanout.stored.toMemberId) await refreshInbox(env, projectCode, fanout.stored.toMemberId, fanout.stored.toMemberNo!);
}

export async function publishDeleted(env: Env, projectCode: string, stored: Fanout["stored"]) {
  for (const id of roomsOf(stored)) await safely("delete", async () => room(env, projectCode, id).publishDeleted(stored.chatroomId, stored.idChatroomMessage));
  if (stored.toMemberId) await refreshInbox(env, projectCode, stored.toMemberId, stored.toMemberNo!);
}

export async function publishReaction(env: Env, projectCode: string, stored: Fanout["stored"]) {
  for (const id of roomsOf(stored)) await safely("reaction", async () => room(env, projectCode, id).publishReaction(stored));
}

export async function publishThread(env: Env, projectCode: string, parent: Fanout["stored"], thread: StoredThread, threadCount: number, hiddenFrom: string[]) {
  const muted = await mutedFor(env, projectCode, thread.message, thread.memberId);
  if (!muted) {
    for (const id of roomsOf(parent)) await publishReload(env, projectCode, id);
    return;
  }
  for (const id of roomsOf(parent)) await safely("thread", async () => room(env, projectCode, id).publishThread(parent, thread, threadCount, hiddenFrom, muted));
}

export async function publishReload(env: Env, projectCode: string, chatroomId: string) {
  await safely("reload", async () => room(env, projectCode, chatroomId).publishReload(chatroomId));
}

/** Pushes fresh unread counts to the member's open tabs (green dot). */
export async function refreshInbox(env: Env, projectCode: string, memberId: string, memberNo: string) {
  await safely("inbox", async () => {
    const counts = await unreadCounts(env, { memberId, memberNo });
    const inbox = await getServerByName(env.MemberInbox, roomName(projectCode, memberId));
    await inbox.pushCounts(counts, await latestNotificationId(env, memberId));
  });
}
