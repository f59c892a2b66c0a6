import type { ChatMessage } from "../../contract/chat";
import { maskPageJson, mutedPhrasesOf } from "../members/muted-words";
import { keptPageJson } from "./chat-page-kept";
import { pageJson, type PageValues } from "./chat-page-sql";
import { assertRoomAccess, roomKind, type ChatMember } from "./chat-access";
import { blurRoomImagesJson } from "./room-image-blur";

type PageOptions = { pageSize: number; memberNo?: string; before?: number; after?: number };

/**
 * §7 GET /sns/chatroom/{id}/messages as JSON text: the newest `pageSize` messages the member may see (optionally
 * before an id, after one for a reconnect replay, or only one member's), oldest first, each the ChatMessage
 * `viewMessage` makes for this viewer, written by SQLite (chat-page-sql.ts). The newest page of a shared room,
 * the one every member opens, comes from the page this isolate keeps for the room while the room's version says
 * it is current (chat-page-kept.ts); other pages are read with every rule in SQL.
 */
export async function listMessagesJson(env: Env, projectCode: string, chatroomId: string, member: ChatMember | null, options: PageOptions): Promise<string> {
  const room = roomKind(chatroomId);
  assertRoomAccess(room, member);
  const [a, b] = room.kind === "direct" ? room.memberNos : ["", ""];
  const values: PageValues = {
    projectCode,
    chatroomId,
    a,
    b,
    viewerId: member?.memberId ?? "",
    viewerNo: member?.memberNo ?? "",
    at: Date.now(),
    memberNo: options.memberNo ?? "",
    before: options.before ?? 0,
    after: options.after ?? 0,
    pageSize: options.pageSize,
  };
  const shape = {
    direct: room.kind === "direct",
    viewer: Boolean(member),
    byMember: Boolean(options.memberNo),
    before: Boolean(options.before),
    after: options.after !== undefined,
  };
  // The kept page applies the reader's muted words itself (read in its one round trip); other pages read them beside.
  // Images under the reader's stranger-media setting (room-image-blur.ts): per reader, after the shared kept page.
  if (!shape.direct && !shape.byMember && !shape.before && !shape.after) return blurRoomImagesJson(env, await keptPageJson(env, values, shape.viewer), member);
  const [page, phrases] = await Promise.all([pageJson(env, values, shape), mutedPhrasesOf(env, member?.memberId, values.at)]);
  return blurRoomImagesJson(env, maskPageJson(page, values.viewerNo, phrases), member);
}

/** The same page as objects, for callers that work with the messages (the room's replay, the last message). */
export async function listMessages(env: Env, projectCode: string, chatroomId: string, member: ChatMember | null, options: PageOptions) {
  return JSON.parse(await listMessagesJson(env, projectCode, chatroomId, member, options)) as ChatMessage[];
}

/** Latest visible message of a room (§7 "last message"; the home bar). */
export async function lastMessage(env: Env, projectCode: string, chatroomId: string, member: ChatMember | null) {
  const [message] = await listMessages(env, projectCode, chatroomId, member, { pageSize: 1 });
  return message ?? null;
}

