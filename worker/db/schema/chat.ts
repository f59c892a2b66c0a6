import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * §3 Chat message. D1 is the source of truth; ChatRoom objects only fan out.
 * `toMemberId` is set on every private message and every one-to-one room message, so a member's inbox
 * and unread counts are one indexed range. `payload` is the §3 JSON (text, emoji, img, encodedImage, or an
 * encrypted envelope whose plaintext the server never sees).
 */
export const chatMessages = sqliteTable(
  "chat_messages",
  {
    idChatroomMessage: integer("id_chatroom_message").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    chatroomId: text("chatroom_id").notNull(),
    memberId: text("member_id").notNull(),
    memberNo: text("member_no").notNull(),
    requestId: text("request_id").notNull(),
    message: text("message").notNull().default(""),
    payload: text("payload").notNull().default("{}"),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    toMemberId: text("to_member_id"),
    toMemberNo: text("to_member_no"),
    /** Images from strangers arrive blurred until the recipient taps to accept them (§6). */
    imageAccepted: integer("image_accepted", { mode: "boolean" }).notNull().default(false),
    threadCount: integer("thread_count").notNull().default(0),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    dateAdd: integer("date_add").notNull(),
    dateUdp: integer("date_udp").notNull(),
  },
  (t) => [
    // requestId makes a send idempotent: one row per sender and request id.
    uniqueIndex("chat_messages_request").on(t.memberId, t.requestId),
    index("chat_messages_room").on(t.projectCode, t.chatroomId, t.idChatroomMessage),
    index("chat_messages_to").on(t.toMemberId, t.idChatroomMessage),
    index("chat_messages_member").on(t.memberId, t.idChatroomMessage),
  ],
);

/** §3 Thread: replies under one message (notes page, photo comments). */
export const chatThreads = sqliteTable(
  "chat_threads",
  {
    idChatMessageThread: integer("id_chat_message_thread").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idChatroomMessage: integer("id_chatroom_message").notNull(),
    memberId: text("member_id").notNull(),
    message: text("message").notNull(),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    dateAdd: integer("date_add").notNull(),
    /** An end-to-end encrypted private reply: the EncryptedPayload JSON (migration 0035); `message` is then ''. */
    payload: text("payload"),
  },
  (t) => [index("chat_threads_message").on(t.idChatroomMessage, t.idChatMessageThread)],
);

/** §3 replyPayload (type, reactEmoji): one reaction per member per message. */
export const chatReactions = sqliteTable(
  "chat_reactions",
  {
    idReaction: integer("id_reaction").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idChatroomMessage: integer("id_chatroom_message").notNull(),
    memberId: text("member_id").notNull(),
    type: text("type").notNull().default("emoji"),
    reactEmoji: text("react_emoji").notNull(),
    dateAdd: integer("date_add").notNull(),
  },
  (t) => [uniqueIndex("chat_reactions_once").on(t.idChatroomMessage, t.memberId)],
);

/** Read position per member and chatroom: a message addressed to the member is read when its id is at or below. */
export const chatReads = sqliteTable(
  "chat_reads",
  {
    memberId: text("member_id").notNull(),
    chatroomId: text("chatroom_id").notNull(),
    projectCode: text("project_code").notNull(),
    lastReadId: integer("last_read_id").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.chatroomId] })],
);

/** §3 Connection: a member's saved one-to-one conversation with another member. */
export const chatConnections = sqliteTable(
  "chat_connections",
  {
    idConnection: integer("id_connection").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("chat_connections_pair").on(t.memberId, t.targetMemberId)],
);

/** §3 Reminder, set on a message; shown only on its UTC date (§9). */
export const chatReminders = sqliteTable(
  "chat_reminders",
  {
    idReminder: integer("id_reminder").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    idChatroomMessage: integer("id_chatroom_message"),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    remindAt: integer("remind_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("chat_reminders_member").on(t.memberId, t.remindAt), index("chat_reminders_remind").on(t.remindAt)],
);

/** Message requests: a stranger's first private message waits here until the recipient accepts. */
export const chatMessageRequests = sqliteTable(
  "chat_message_requests",
  {
    idRequest: integer("id_request").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    fromMemberId: text("from_member_id").notNull(),
    status: text("status", { enum: ["pending", "accepted", "declined"] }).notNull().default("pending"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("chat_message_requests_pair").on(t.memberId, t.fromMemberId), index("chat_message_requests_status").on(t.memberId, t.status)],
);

/** Who may message a member directly and who sees them online. Absent row = the defaults in the contract. */
export const chatContactSettings = sqliteTable("chat_contact_settings", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  acceptFrom: text("accept_from", { enum: ["everyone", "verified", "following", "friends"] }).notNull().default("following"),
  /** JSON array of multiGender values always accepted directly. */
  acceptRoles: text("accept_roles").notNull().default("[]"),
  presenceAudience: text("presence_audience", { enum: ["everyone", "followers", "friends", "nobody"] }).notNull().default("everyone"),
  updatedAt: integer("updated_at").notNull(),
});

/** Presence written through by the Presence object, so "latest online" survives any eviction. */
export const chatPresence = sqliteTable(
  "chat_presence",
  {
    memberId: text("member_id").primaryKey(),
    projectCode: text("project_code").notNull(),
    online: integer("online", { mode: "boolean" }).notNull().default(false),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [index("chat_presence_project").on(t.projectCode, t.lastSeenAt)],
);

/** §7 "notifications source update {sourceKey} and count for WEB_PUSH": a member's push sources. */
export const chatPushSources = sqliteTable(
  "chat_push_sources",
  {
    memberId: text("member_id").notNull(),
    sourceKey: text("source_key").notNull(),
    projectCode: text("project_code").notNull(),
    source: text("source").notNull().default("WEB_PUSH"),
    lastCountAt: integer("last_count_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.sourceKey] })],
);

/**
 * A version per shared room, bumped by triggers (migration 0010, WITHOUT ROWID there) on every change a room's page
 * shows: a message posted, edited, deleted or threaded, a reaction. Kept pages (chat-page-kept.ts) compare it.
 */
export const chatRoomVersions = sqliteTable(
  "chat_room_versions",
  {
    projectCode: text("project_code").notNull(),
    chatroomId: text("chatroom_id").notNull(),
    version: integer("version").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectCode, t.chatroomId] })],
);

/** A version per project of the member cards chat pages show (migration 0010: bumped by triggers on profiles). */
export const chatCardVersions = sqliteTable("chat_card_versions", {
  projectCode: text("project_code").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * An image uploaded for a private message (R2 kind `dm`, or `e2e` for browser-encrypted bytes; refused by /media). `idChatroomMessage` is the one private
 * message it was sent in (null until then); /private-media serves it to the uploader and that message's recipient.
 */
export const chatMedia = sqliteTable(
  "chat_media",
  {
    mediaKey: text("media_key").primaryKey(),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    idChatroomMessage: integer("id_chatroom_message"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("chat_media_member").on(t.memberId), index("chat_media_message").on(t.idChatroomMessage)],
);

/**
 * Personal chatroom → owner (migration 0026, README Decisions "Photo comment counts"): the room id is md5 of the
 * member code (§2), which SQL cannot compute, so the worker writes this at sign-up and fills missing rows lazily.
 */
export const personalChatrooms = sqliteTable(
  "personal_chatrooms",
  {
    projectCode: text("project_code").notNull(),
    chatroomId: text("chatroom_id").notNull(),
    memberId: text("member_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectCode, t.chatroomId] }), uniqueIndex("personal_chatrooms_member").on(t.memberId)],
);

/**
 * Requests tray and notification filters (migration 0030; README Decisions "Filters for requests and notifications").
 * Absent row = nothing filtered. Only its owner reads or writes it; the rule itself lives in requests-filters.ts.
 */
export const memberFilters = sqliteTable("member_filters", {
  memberId: text("member_id").primaryKey(),
  projectCode: text("project_code").notNull(),
  /** Accounts younger than this many days are filtered; 0 = off. */
  newerThanDays: integer("newer_than_days").notNull().default(0),
  noAvatar: integer("no_avatar", { mode: "boolean" }).notNull().default(false),
  notFollowed: integer("not_followed", { mode: "boolean" }).notNull().default(false),
  inRequests: integer("in_requests", { mode: "boolean" }).notNull().default(true),
  inNotifications: integer("in_notifications", { mode: "boolean" }).notNull().default(true),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * End-to-end encryption devices (migration 0033, README Decisions "Verifiable end-to-end keys"): the public keys of
 * each browser that holds a member's keys. Private keys never leave the browser. At most E2E_MAX_DEVICES per member.
 */
export const e2eDevices = sqliteTable(
  "e2e_devices",
  {
    idDevice: integer("id_device").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    /** Chosen by the browser (random, base64url), stable across re-registration. */
    deviceId: text("device_id").notNull(),
    /** From the user agent or given by the member; shown to its owner only. */
    name: text("name").notNull(),
    /** SPKI, base64: RSA-OAEP (SHA-256) public key that message keys are wrapped for. */
    encryptionKey: text("encryption_key").notNull(),
    /** SPKI, base64: ECDSA P-256 public key that verifies this device's message signatures. */
    signingKey: text("signing_key").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Migration 0036: a pending link request's HMAC over this device's keys (README Decisions "Linking a second device"). */
    linkTag: text("link_tag"),
    linkExpiresAt: integer("link_expires_at"),
  },
  (t) => [uniqueIndex("e2e_devices_member_device").on(t.memberId, t.deviceId)],
);

/**
 * Message keys one of the member's devices re-wrapped for another of theirs when linking it (migration 0036,
 * README Decisions "Linking a second device"): RSA-OAEP-wrapped for the target device only, owner-only.
 */
export const e2eLinkKeys = sqliteTable(
  "e2e_link_keys",
  {
    idLinkKey: integer("id_link_key").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    /** The device the key is wrapped for. */
    deviceId: text("device_id").notNull(),
    idChatroomMessage: integer("id_chatroom_message").notNull(),
    wrappedKey: text("wrapped_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("e2e_link_keys_device_message").on(t.memberId, t.deviceId, t.idChatroomMessage)],
);

/** Private thread replies' keys re-wrapped for a linked device (migration 0042), as e2eLinkKeys for chat messages. */
export const e2eLinkThreadKeys = sqliteTable(
  "e2e_link_thread_keys",
  {
    idLinkKey: integer("id_link_key").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    /** The device the key is wrapped for. */
    deviceId: text("device_id").notNull(),
    idChatMessageThread: integer("id_chat_message_thread").notNull(),
    wrappedKey: text("wrapped_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("e2e_link_thread_keys_device_thread").on(t.memberId, t.deviceId, t.idChatMessageThread)],
);
