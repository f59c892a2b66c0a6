import { z } from "zod";
import type { ChatMessage, ChatReaction, ChatThread, UnreadCounts } from "./chat";

// The server's socket events on their own (their type re-exported by ./realtime): the browser loads only these, not the
// request schemas of ./chat that ./realtime's ClientEvent needs, whose construction cost pages ~100 ms of main
// thread at Lighthouse's 4x slowdown (README Decisions "Lighter main pages").

const isObject = (v: unknown) => typeof v === "object" && v !== null;
const ChatMessageShape = () => z.custom<ChatMessage>((v) => isObject(v) && typeof (v as ChatMessage).idChatroomMessage === "number");
const ChatThreadShape = () => z.custom<ChatThread>((v) => isObject(v) && typeof (v as ChatThread).idChatMessageThread === "number");
const ReactionsShape = () => z.custom<ChatReaction[]>((v) => Array.isArray(v));
const CountsShape = () => z.custom<UnreadCounts>((v) => isObject(v) && typeof (v as UnreadCounts).total === "number");
const PresenceMember = () => z.object({ memberNo: z.string(), online: z.boolean(), lastSeen: z.string() });

/**
 * Socket protocol (§7 Real time), server to browser: one schema per event `type`, each built the first time an event
 * of that type arrives (`parseServerEvent`). Building all sixteen as one union when the browser loaded them was a
 * single 60–100 ms task at Lighthouse's 4x slowdown, counted whole in total blocking time; a page receives a few
 * types, each now costs its own few milliseconds when it first comes (README Decisions "Lighter main pages").
 */
const shapes = {
  welcome: () => z.object({ type: z.literal("welcome"), memberNo: z.string(), room: z.string() }),
  notification: () =>
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
  "chat.message": () => z.object({ type: z.literal("chat.message"), message: ChatMessageShape(), replay: z.boolean().optional() }),
  "chat.edited": () => z.object({ type: z.literal("chat.edited"), message: ChatMessageShape() }),
  "chat.deleted": () => z.object({ type: z.literal("chat.deleted"), chatroomId: z.string(), idChatroomMessage: z.number() }),
  "chat.reaction": () =>
    z.object({ type: z.literal("chat.reaction"), chatroomId: z.string(), idChatroomMessage: z.number(), replyPayload: ReactionsShape() }),
  "chat.thread": () =>
    z.object({ type: z.literal("chat.thread"), chatroomId: z.string(), idChatroomMessage: z.number(), threadCount: z.number(), thread: ChatThreadShape() }),
  "chat.reload": () => z.object({ type: z.literal("chat.reload"), chatroomId: z.string() }),
  /** End of the replay after a reconnect: everything up to `lastId` has been sent once. */
  "chat.synced": () => z.object({ type: z.literal("chat.synced"), lastId: z.number() }),
  /**
   * Answer to a socket send: the stored message (or the existing one for a repeated requestId), and the D1 bookmark
   * of the write (send it as `x-d1-bookmark` to read it back from any replica; worker/db/d1-session.ts).
   */
  "chat.ack": () => z.object({ type: z.literal("chat.ack"), requestId: z.string(), message: ChatMessageShape(), bookmark: z.string().optional() }),
  // Presence: who is online, filtered by each member's chosen audience.
  "presence.snapshot": () => z.object({ type: z.literal("presence.snapshot"), members: z.array(PresenceMember()) }),
  "presence.update": () => z.object({ type: z.literal("presence.update"), member: PresenceMember() }),
  // MemberInbox: unread counts (green dot) and the newest notification id (orange dot).
  "inbox.counts": () => z.object({ type: z.literal("inbox.counts"), counts: CountsShape(), latestNotificationId: z.number() }),
  error: () => z.object({ type: z.literal("error"), returnCode: z.string(), returnMessage: z.string(), requestId: z.string().optional() }),
  /**
   * The last frame before a 4001 close (README Decisions "Sockets end with their session"): a close frame can reach
   * the browser late (a proxy waiting for the connection to end; local workerd holds it about 10 s) or without its
   * code, so the end is also said in band.
   */
  "session.ended": () => z.object({ type: z.literal("session.ended") }),
};

type Shapes = typeof shapes;
export type ServerEvent = { [T in keyof Shapes]: z.infer<ReturnType<Shapes[T]>> }[keyof Shapes];
// The parser picks a schema by the frame's `type`: each key must be its schema's type (this fails to compile if not).
type KeyNotItsType = { [T in keyof Shapes]: z.infer<ReturnType<Shapes[T]>>["type"] extends T ? never : T }[keyof Shapes];
export const everyKeyIsItsType: [KeyNotItsType] extends [never] ? true : KeyNotItsType = true;

const built = new Map<string, z.ZodType>();

/** A socket frame's event, checked against its type's schema (a discriminated union, one member built at a time). */
export function parseServerEvent(data: unknown): { success: true; data: ServerEvent } | { success: false } {
  const type = (data as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !Object.hasOwn(shapes, type)) return { success: false };
  let schema = built.get(type);
  if (!schema) {
    schema = shapes[type as keyof Shapes]();
    built.set(type, schema);
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? { success: true, data: parsed.data as ServerEvent } : { success: false };
}
