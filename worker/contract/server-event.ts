import { z } from "zod";
import type { ChatMessage, ChatReaction, ChatThread, UnreadCounts } from "./chat";

// The server's socket events on their own (re-exported by ./realtime): the browser loads only this union, not the
// request schemas of ./chat that ./realtime's ClientEvent needs, whose construction cost pages ~100 ms of main
// thread at Lighthouse's 4x slowdown (README Decisions "Lighter main pages").

const isObject = (v: unknown) => typeof v === "object" && v !== null;
const ChatMessageShape = z.custom<ChatMessage>((v) => isObject(v) && typeof (v as ChatMessage).idChatroomMessage === "number");
const ChatThreadShape = z.custom<ChatThread>((v) => isObject(v) && typeof (v as ChatThread).idChatMessageThread === "number");
const ReactionsShape = z.custom<ChatReaction[]>((v) => Array.isArray(v));
const CountsShape = z.custom<UnreadCounts>((v) => isObject(v) && typeof (v as UnreadCounts).total === "number");
const PresenceMember = z.object({ memberNo: z.string(), online: z.boolean(), lastSeen: z.string() });

/** Socket protocol (§7 Real time): one zod union per direction, shared by rooms and the browser. */
export const ServerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("welcome"), memberNo: z.string(), room: z.string() }),
  z.object({
    type: z.literal("notification"),
    item: z.object({
      idNotification: z.number(),
      type: z.string(),
      actorMemberNo: z.string().nullable(),
      params: z.record(z.string(), z.unknown()),
      dateAdd: z.string(),
      read: z.boolean(),
    }),
  }),
  // ChatRoom: new message (also replayed after a reconnect), edits, deletions, reactions, threads, reload.
  z.object({ type: z.literal("chat.message"), message: ChatMessageShape, replay: z.boolean().optional() }),
  z.object({ type: z.literal("chat.edited"), message: ChatMessageShape }),
  z.object({ type: z.literal("chat.deleted"), chatroomId: z.string(), idChatroomMessage: z.number() }),
  z.object({ type: z.literal("chat.reaction"), chatroomId: z.string(), idChatroomMessage: z.number(), replyPayload: ReactionsShape }),
  z.object({ type: z.literal("chat.thread"), chatroomId: z.string(), idChatroomMessage: z.number(), threadCount: z.number(), thread: ChatThreadShape }),
  z.object({ type: z.literal("chat.reload"), chatroomId: z.string() }),
  /** End of the replay after a reconnect: everything up to `lastId` has been sent once. */
  z.object({ type: z.literal("chat.synced"), lastId: z.number() }),
  /**
   * Answer to a socket send: the stored message (or the existing one for a repeated requestId), and the D1 bookmark
   * of the write (send it as `x-d1-bookmark` to read it back from any replica; worker/db/d1-session.ts).
   */
  z.object({ type: z.literal("chat.ack"), requestId: z.string(), message: ChatMessageShape, bookmark: z.string().optional() }),
  // Presence: who is online, filtered by each member's chosen audience.
  z.object({ type: z.literal("presence.snapshot"), members: z.array(PresenceMember) }),
  z.object({ type: z.literal("presence.update"), member: PresenceMember }),
  // MemberInbox: unread counts (green dot) and the newest notification id (orange dot).
  z.object({ type: z.literal("inbox.counts"), counts: CountsShape, latestNotificationId: z.number() }),
  z.object({ type: z.literal("error"), returnCode: z.string(), returnMessage: z.string(), requestId: z.string().optional() }),
  /**
   * The last frame before a 4001 close (README Decisions "Sockets end with their session"): a close frame can reach
   * the browser late (a proxy waiting for the connection to end; local workerd holds it about 10 s) or without its
   * code, so the end is also said in band.
   */
  z.object({ type: z.literal("session.ended") }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;
