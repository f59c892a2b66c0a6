import { z } from "zod";
import { numeric } from "./common";
import type { ProfileSummary } from "./profile-summary";
import { CHAT_PAGE_SIZE } from "./chat.constants";
import { E2E_DEVICE_ID, E2E_MAX_DEVICES } from "./e2e.constants";
export * from "./chat.constants";

export const ChatroomId = z.string().regex(/^[A-Za-z0-9-]{3,64}$/, "Invalid chatroom id");

const Text = z.string().max(4000);

/** §3 payload: text (content, optional replyContent), emoji (emoji, unified), img / encodedImage (src). */
export const TextPayload = z.object({ type: z.literal("text"), content: Text, replyContent: z.string().max(4000).optional() });
export const EmojiPayload = z.object({ type: z.literal("emoji"), emoji: z.string().min(1).max(32), unified: z.string().max(64).default("") });
/**
 * Images are uploaded through the media pipeline first; only our own keys are accepted: /media/ (public rooms) or,
 * in private messages, /private-media/…/dm/ (an upload of type `private`, served to sender and recipient only).
 */
const MediaSrc = z
  .string()
  .regex(/^(\/media\/[A-Z]{3}\/\d{1,12}\/[a-z]+\/[A-Za-z0-9_.-]+|\/private-media\/[A-Z]{3}\/\d{1,12}\/dm\/[A-Za-z0-9_-]+\.(jpg|png))$/, "Images must be uploaded first");
export const ImagePayload = z.object({ type: z.literal("img"), src: MediaSrc });
/**
 * §4/§9 encoded image: stored as a key-seeded pixel shuffle (lossless PNG) and unscrambled in the browser with `key`,
 * the 32-byte seed in hex the upload answered (`encode=true`). The file alone shows only noise; the key travels only
 * in the message, so only those who may see the message (not a private message's placeholder) can restore it.
 */
export const EncodedImagePayload = z.object({ type: z.literal("encodedImage"), src: MediaSrc, key: z.string().regex(/^[0-9a-f]{64}$/, "Invalid image key") });
/** An upload of type `encrypted`: opaque browser-encrypted bytes, served by /private-media to the two members only. */
export const E2eMediaSrc = z.string().regex(/^\/private-media\/[A-Z]{3}\/\d{1,12}\/e2e\/[A-Za-z0-9_-]+\.bin$/, "Images must be uploaded first");
const WrappedKey = z.string().regex(/^[A-Za-z0-9+/=]+$/).max(2048);
/**
 * §7 encrypted private message: AES-GCM ciphertext, the AES key wrapped (RSA-OAEP) for each member number
 * that may read it (recipient and sender). The server stores and relays it, never the plaintext.
 * README Decisions "Verifiable end-to-end keys": `deviceKeys` wraps the same key for every registered device of
 * both members (member number → device id → wrapped key; `keys` stays for §7), and `senderDevice` + `sig` are the
 * sending device and its ECDSA P-256 signature, which the receiving browser verifies (SECURITY.md).
 */
export const EncryptedPayload = z.object({
  type: z.literal("encrypted"),
  alg: z.literal("RSA-OAEP-256+A256GCM"),
  iv: z.string().regex(/^[A-Za-z0-9+/=]{16,32}$/),
  data: z.string().regex(/^[A-Za-z0-9+/=]+$/).max(24_000),
  keys: z.record(z.string().regex(/^\d{1,12}$/), WrappedKey).refine((k) => Object.keys(k).length >= 1 && Object.keys(k).length <= 2),
  deviceKeys: z
    .record(z.string().regex(/^\d{1,12}$/), z.record(z.string().regex(E2E_DEVICE_ID), WrappedKey).refine((d) => Object.keys(d).length <= E2E_MAX_DEVICES))
    .refine((k) => Object.keys(k).length <= 2)
    .optional(),
  senderDevice: z.string().regex(E2E_DEVICE_ID).optional(),
  sig: z.string().regex(/^[A-Za-z0-9+/=]{1,200}$/).optional(),
  /**
   * Signed payload v2 (SECURITY.md): a random id the sending browser picks and its sending time (ms), both inside
   * the signature, so a reader notices a replayed or re-dated message. Absent on v1 messages, which still verify.
   */
  v: z.literal(2).optional(),
  msgId: z.string().regex(E2E_DEVICE_ID).optional(),
  sentAt: z.number().int().positive().max(8_640_000_000_000_000).optional(),
  /**
   * README Decisions "Everything private is encrypted": an encrypted image. The file (R2 kind `e2e`, opaque bytes)
   * was encrypted in the browser with its own AES-256-GCM key, which travels inside `data` with this same address;
   * the reader shows the image only when both addresses match. The server needs it to bind and serve the file.
   */
  media: E2eMediaSrc.optional(),
});
export const Payload = z.discriminatedUnion("type", [TextPayload, EmojiPayload, ImagePayload, EncodedImagePayload, EncryptedPayload]);
export type Payload = z.infer<typeof Payload>;

export const RequestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "requestId must be 8-64 letters, digits, - or _");
export const MemberNoField = z.string().regex(/^\d{1,12}$/, "Invalid member number");

export const PostMessageBody = z.object({
  message: Text.default(""),
  payload: Payload.optional(),
  requestId: RequestId,
  toMemberNo: MemberNoField.nullish(),
  isPrivate: z.boolean().default(false),
});
export type PostMessageBody = z.infer<typeof PostMessageBody>;

export const EditMessageBody = z.object({ message: Text });
export const ReactBody = z.object({
  replyPayload: z.object({ type: z.literal("emoji").default("emoji"), reactEmoji: z.string().min(1).max(32) }),
});
export const ThreadBody = z.object({
  idChatroomMessage: z.number().int().positive(),
  message: z.string().max(2000).default(""),
  isPrivate: z.boolean().default(false),
  /** A private reply encrypted end to end between the replier and the note's author (README Decisions "Everything private is encrypted"). */
  payload: EncryptedPayload.optional(),
});
export const MessagesQuery = z.object({
  pageSize: numeric().pipe(z.number().int().min(1).max(CHAT_PAGE_SIZE)).default(CHAT_PAGE_SIZE),
  memberNo: MemberNoField.optional(),
  /** Older page: messages with a smaller id. */
  before: numeric().pipe(z.number().int().positive()).optional(),
});
export const MarkReadBody = z.object({ idChatroomMessage: z.number().int().positive().optional() });
export const DeleteQuery = z.object({ all: z.enum(["true", "false", "1", "0", ""]).optional() });
export const ConnectionBody = z.object({ memberNo: MemberNoField });
/** A base64url string that decodes to exactly `bytes` bytes (push subscription keys, RFC 8291). */
const base64urlBytes = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((v) => {
      try {
        return atob(v.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/")).length === bytes;
      } catch {
        return false;
      }
    }, `must be base64url of ${bytes} bytes`);
/**
 * A browser's push subscription (`PushSubscription.toJSON()`): an https endpoint on a named host (no IP literal, no
 * localhost: the server posts to it), the browser's P-256 key (65-byte uncompressed point) and 16-byte auth secret.
 */
export const PushSubscriptionBody = z.object({
  endpoint: z
    .string()
    .max(1024)
    .url()
    .refine((v) => {
      const url = new URL(v);
      return url.protocol === "https:" && !url.username && !url.password && !/^(localhost|\[.*\]|[\d.]+)$/i.test(url.hostname) && url.hostname.includes(".");
    }, "must be an https push service address"),
  keys: z.object({ p256dh: base64urlBytes(65), auth: base64urlBytes(16) }),
});
/** §7 source update; with `subscription` it also registers this device for web push (README "Push that reaches a closed app"). */
export const SourceBody = z.object({ sourceKey: z.string().trim().min(1).max(512), subscription: PushSubscriptionBody.optional() });
export const PushRemoveBody = z.object({ endpoint: z.string().min(1).max(1024) });
export const SourceCountQuery = z.object({ source: z.literal("WEB_PUSH").default("WEB_PUSH"), sourceKey: z.string().max(512).optional() });
export const ReminderBody = z.object({
  idChatroomMessage: z.number().int().positive(),
  title: z.string().trim().min(1).max(120),
  description: z.string().max(1000).default(""),
  /** ISO date-time with Z (§9: UTC). */
  remindAt: z.iso.datetime(),
});
export const AcceptFrom = z.enum(["everyone", "verified", "following", "friends"]);
export const PresenceAudience = z.enum(["everyone", "followers", "friends", "nobody"]);
export const ContactSettingsBody = z.object({
  acceptFrom: AcceptFrom.optional(),
  acceptRoles: z.array(z.number().int().min(1).max(6)).max(6).optional(),
  presenceAudience: PresenceAudience.optional(),
});
export type ContactSettings = { acceptFrom: z.infer<typeof AcceptFrom>; acceptRoles: number[]; presenceAudience: z.infer<typeof PresenceAudience> };
export const DEFAULT_CONTACT_SETTINGS: ContactSettings = { acceptFrom: "following", acceptRoles: [], presenceAudience: "everyone" };
export const RequestDecisionBody = z.object({ decision: z.enum(["accept", "decline"]) });

/** §6: what everyone but sender and recipient sees of a private message. */
export const PRIVATE_PLACEHOLDER = "private message";

/** `mutedWord`: the text contains one of the viewer's muted words and was withheld (README Decisions "Muted words"). */
export type ChatThread = {
  idChatMessageThread: number;
  message: string;
  isPrivate: boolean;
  profile: ProfileSummary | null;
  dateAdd: string;
  mutedWord?: boolean;
  /** An encrypted private reply, to its two members only (everyone else: the placeholder and null). */
  payload?: EncryptedPayloadT | null;
};
export type EncryptedPayloadT = z.infer<typeof EncryptedPayload>;
/** POST /sns/chatroom/messages/threads/{memberId}: the reply as its author sees it, under its message, and the message's reply count. */
export type ThreadPosted = ChatThread & { idChatroomMessage: number; threadCount: number };
export type ChatReaction = { type: string; reactEmoji: string; memberNo: string };
/** PUT /sns/chatroom/messages/{memberId}/{id}/react: the message's reactions after the toggle. */
export type MessageReacted = { idChatroomMessage: number; replyPayload: ChatReaction[] };
/** POST /sns/chatroom/messages/{id}/reveal-image: one blurred room image's original (room-image-blur.ts). */
export type RoomImageRevealed = { idChatroomMessage: number; payload: Payload };

/** §3 Chat message as the API and the sockets send it. */
export type ChatMessage = {
  idChatroomMessage: number;
  idMessage: number;
  requestId: string;
  chatroomId: string;
  message: string;
  payload: Payload | null;
  replyPayload: ChatReaction[];
  isPrivate: boolean;
  /** True when the viewer sees only the placeholder (§6). */
  placeholder: boolean;
  /** A stranger's image the recipient has not accepted yet: shown blurred. */
  blurred: boolean;
  toMemberNo: string | null;
  toProfile: ProfileSummary | null;
  profile: ProfileSummary | null;
  memberNo: string;
  nickname: string;
  dateAdd: string;
  dateUdp: string;
  read: boolean;
  deleted: boolean;
  blocked: boolean;
  threadCount: number;
  threads?: ChatThread[];
  /** The text contains one of the viewer's muted words and was withheld until asked (README Decisions "Muted words"). */
  mutedWord?: boolean;
  /**
   * The author's image reaches this reader as its blurred rendition (README Decisions "Stranger media stays blurred");
   * POST /sns/chatroom/messages/{id}/reveal-image gives the original of this one message.
   */
  strangerBlur?: boolean;
};

export type ChatListEntry = {
  chatroomId: string;
  idConnection: number | null;
  profile: ProfileSummary;
  lastMessage: ChatMessage | null;
  unread: number;
  /** This member wrote first and the other has not accepted yet (a decline also reads as waiting). */
  waiting: boolean;
};

/** GET /sns/message-permission/{memberNo}: what a profile's Message button may promise (the send re-checks all). */
export type MessagePermission = { memberNo: string; nickname: string; canMessage: boolean; reason: "self" | "paused" | null; asRequest: boolean };

export type MessageRequest = {
  idRequest: number;
  status: "pending" | "accepted" | "declined";
  profile: ProfileSummary;
  chatroomId: string;
  dateAdd: string;
  count: number;
};

export type Reminder = { idReminder: number; idChatroomMessage: number | null; title: string; description: string; remindAt: string };
export type UnreadCounts = { total: number; requests: number; byChatroom: Record<string, number> };
export type PresenceEntry = { profile: ProfileSummary; online: boolean; lastSeen: string };
