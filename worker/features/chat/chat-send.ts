// Sending a chat message (§5 text and images, §6/§8 sending rules, §7 POST messages and message requests), its reads in one round trip.
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { compiledNamed, namedBatch, type NamedResults } from "../../db/named-batch";
import { insertWhere } from "../../db/insert-where";
import { chatMessageRequests, chatMessages, members, profiles } from "../../db/schema";
import { privateMediaKeyFromUrl } from "../../contract/media";
import { PERSONAL_CHATROOM, directChatroomId, type ChatMessage, type Payload, type PostMessageBody } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { notify } from "../notifications/notify";
import { profileSummaryColumns } from "../members/profile-summary";
import { postableSql, postingRefusal } from "../members/posting-rules";
import { assertRoomAccess, roomKind, verificationRequired, viewerContext, type ChatMember, type RoomKind } from "./chat-access";
import { bindChatImageStatement, ownUnsentChatImage } from "./chat-media";
import { hiddenFrom, hydrateOnly, imageSrcOf, senderAudienceReads, toStored, type Fanout, type MessageRow } from "./chat-messages";
import { viewMessage, type ChatViewer } from "./chat-view";
import { acceptsDirectly } from "./contact-settings";
import { answersTheOther } from "./conversation-starts";
import { refreshPhotoCommentCount } from "./photo-comment-counts";
import { canSeeAvatars } from "../members/avatar-rights";

/**
 * §7 POST /sns/chatrooms/{id}/messages/{memberId}. D1 first; the caller then publishes the fan-out.
 * The same requestId twice returns the stored message and publishes nothing.
 */
export async function sendMessage(env: Env, member: ChatMember, chatroomId: string, body: PostMessageBody): Promise<Sent> {
  const result = await storeMessage(env, member, chatroomId, body);
  // A new comment in a personal room: the owner's photo cards carry the count (photo-comment-counts.ts).
  if (result.fanout && PERSONAL_CHATROOM.test(chatroomId)) await refreshPhotoCommentCount(env, member.projectCode, chatroomId);
  return result;
}

type Sent = { message: ChatMessage; fanout: Fanout | null };

async function storeMessage(env: Env, member: ChatMember, chatroomId: string, body: PostMessageBody): Promise<Sent> {
  const room = roomKind(chatroomId);
  assertRoomAccess(room, member);
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const draft = await draftOf(env, member, room, chatroomId, body);
  const read = await readForSend(env, draft);
  const existing = read.existing[0];
  if (existing) return alreadySent(env, member, chatroomId, existing);
  const sender = allowedSender(read.sender[0], room, body.isPrivate, draft.send.at);
  const hiddenFromSender = hiddenFrom(read);
  const viewer = senderViewer(member, sender);
  if (!draft.recipientNo) return storedWithoutRecipient(member, read.stored?.[0], sender, viewer, hiddenFromSender);

  const recipient = reachableRecipient(read.recipient[0], member, new Set(read.blockedWith.map((r) => r.memberId)));
  const isPrivate = room.kind === "direct" || body.isPrivate;
  if (draft.payload.type === "encrypted" && !isPrivate) throw new AppError("chatPrivateNeedsRecipient");
  const { row, fresh } = await insertToRecipient(env, draft, recipient, isPrivate);
  // Lost a race with the same requestId: the other call stored and published it.
  if (!fresh) return { message: viewMessage((await hydrateOnly(env, member.projectCode, [row]))[0]!, viewer), fanout: null };
  if (isPrivate) await deliverPrivately(env, member, sender, recipient, row, draft.send.at);
  const [stored] = await hydrateOnly(env, member.projectCode, [row]);
  return { message: viewMessage(stored!, viewer), fanout: { stored: stored!, hiddenFrom: hiddenFromSender } };
}

/** What a send stores, checked before anything is read: the text or payload (§5), its image (§5, §7), its recipient. */
type Draft = { send: SendValues; recipientNo: string | null; payload: Payload; privateImage: string | null; shared: boolean };

async function draftOf(env: Env, member: ChatMember, room: RoomKind, chatroomId: string, body: PostMessageBody): Promise<Draft> {
  const at = Date.now();
  const recipientNo =
    room.kind === "direct" ? (room.memberNos[0] === member.memberNo ? room.memberNos[1] : room.memberNos[0]) : (body.toMemberNo ?? null);
  const { message, payload } = normalise(body);
  if (imageSrcOf(payload) && verificationRequired(room) && member.kycStatus <= 0) throw new AppError("chatImageNeedsKyc");
  if (!recipientNo && (body.isPrivate || payload.type === "encrypted")) throw new AppError("chatPrivateNeedsRecipient");
  const privateImage = await privateImageOf(env, member, payload, room.kind === "direct" || body.isPrivate, body.requestId);
  const send: SendValues = {
    projectCode: member.projectCode,
    chatroomId,
    memberId: member.memberId,
    memberNo: member.memberNo,
    requestId: body.requestId,
    message,
    payload: JSON.stringify(payload),
    at,
    recipientNo: recipientNo ?? "",
  };
  return { send, recipientNo, payload, privateImage, shared: room.kind === "public" || room.kind === "home" };
}

/** The one round trip of a send: every read, and without a recipient the insert too (`sendBatch`). */
function readForSend(env: Env, draft: Draft) {
  const db = getDb(env);
  const shape = draft.recipientNo ? "checkFirst" : draft.shared ? "insertAndStamp" : "insert";
  return namedBatch(db, sendStatements[shape](db, draft.send));
}

/** The same requestId again: the stored message, nothing published; in another room or tenant it is refused. */
async function alreadySent(env: Env, member: ChatMember, chatroomId: string, existing: MessageRow): Promise<Sent> {
  if (existing.chatroomId !== chatroomId || existing.projectCode !== member.projectCode) throw new AppError("chatRequestIdReused");
  const [stored] = await hydrateOnly(env, member.projectCode, [existing]);
  return { message: viewMessage(stored!, await viewerContext(env, member)), fanout: null };
}

type Sender = NamedResults<SendBatch>["sender"][number];

/**
 * §5/§6/§8 posting rules (posting-rules.ts); a one-to-one room takes only the sending rules. Without a recipient
 * the insert in the same batch already repeated them in SQL, so a refused attempt stored nothing.
 */
function allowedSender(row: Sender | undefined, room: RoomKind, isPrivate: boolean, at: number): Sender {
  const refusal = postingRefusal(row, room.kind === "direct" ? "send" : "post", { isPrivate, at });
  if (refusal) throw new AppError(refusal);
  return row!;
}

/** The sender sees their own message with their own avatar rights and safe mode. */
const senderViewer = (member: ChatMember, sender: Sender): ChatViewer => ({
  memberId: member.memberId,
  memberNo: member.memberNo,
  canSeeAvatars: canSeeAvatars(sender),
  safeMode: sender.safeMode,
});

/** A fresh message without a recipient: its only related record is the sender's card, already read. */
function storedWithoutRecipient(member: ChatMember, inserted: MessageRow | undefined, sender: Sender, viewer: ChatViewer, hiddenFrom: string[]): Sent {
  if (!inserted) throw new AppError("conflict");
  const { accountStatus: _status, suspendedUntil: _until, safeMode: _safeMode, ...senderCard } = sender;
  const [stored] = toStored([inserted], new Map([[member.memberId, senderCard]]), new Map(), new Set(), new Set());
  return { message: viewMessage(stored!, viewer), fanout: { stored: stored!, hiddenFrom } };
}

type Recipient = { memberId: string; memberNo: string };

/** The recipient, in the tenant, not the sender; a block is total: the blocked member does not exist for the sender. */
function reachableRecipient(row: Recipient | undefined, member: ChatMember, blockedEitherWay: Set<string>): Recipient {
  if (!row) throw new AppError("notFound");
  if (row.memberId === member.memberId) throw new AppError("chatNotToSelf");
  if (blockedEitherWay.has(row.memberId)) throw new AppError("notFound");
  return row;
}

/**
 * With a recipient: a private message goes to their inbox and carries their id; a public mention keeps just the
 * number. The insert, (shared rooms) the latest-speech stamp and a private image's binding in one batch. `fresh`
 * is false when another call with the same requestId stored it first.
 */
async function insertToRecipient(env: Env, draft: Draft, recipient: Recipient, isPrivate: boolean): Promise<{ row: MessageRow; fresh: boolean }> {
  const db = getDb(env);
  const { send } = draft;
  const mention = { ...messageRow(send), isPrivate, toMemberId: isPrivate ? recipient.memberId : null, toMemberNo: recipient.memberNo };
  const insert = db.insert(chatMessages).values(mention).onConflictDoNothing().returning();
  const stamp = draft.shared ? [latestSpeechStamp(db, send.memberId, send.at)] : [];
  const bind = draft.privateImage ? [bindChatImageStatement(db, draft.privateImage, send.memberId, send.requestId)] : [];
  const insertedRows = stamp.length || bind.length ? (await namedBatch(db, { inserted: insert }, [...stamp, ...bind])).inserted : await insert;
  const inserted = insertedRows[0];
  const row =
    inserted ?? (await db.select().from(chatMessages).where(and(eq(chatMessages.memberId, send.memberId), eq(chatMessages.requestId, send.requestId))).get());
  if (!row) throw new AppError("conflict");
  return { row, fresh: Boolean(inserted) };
}

/**
 * A private message is delivered (notified) or waits as a request in the recipient's tray (§7 message requests,
 * §6 contact settings). Answering someone who wrote first is never a request, and it accepts theirs
 * (conversation-starts.ts).
 */
async function deliverPrivately(env: Env, member: ChatMember, sender: Sender, recipient: Recipient, row: MessageRow, at: number) {
  const direct =
    (await answersTheOther(env, member.memberId, recipient.memberId)) ||
    (await acceptsDirectly(env, recipient.memberId, { memberId: member.memberId, kycStatus: sender.kycStatus, multiGender: sender.multiGender }));
  const db = getDb(env);
  const request = await db
    .select({ status: chatMessageRequests.status })
    .from(chatMessageRequests)
    .where(and(eq(chatMessageRequests.memberId, recipient.memberId), eq(chatMessageRequests.fromMemberId, member.memberId)))
    .get();
  const actor = { memberId: member.memberId, memberNo: member.memberNo };
  const chatroomId = directChatroomId(member.memberNo, recipient.memberNo);
  if (!direct && !request) {
    await db
      .insert(chatMessageRequests)
      .values({ projectCode: member.projectCode, memberId: recipient.memberId, fromMemberId: member.memberId, status: "pending", createdAt: at, updatedAt: at })
      .onConflictDoNothing();
    await notify(env, { projectCode: member.projectCode, memberId: recipient.memberId, type: "messageRequest", actor, params: { chatroomId } });
  } else if (direct || request?.status === "accepted") {
    await notify(env, {
      projectCode: member.projectCode,
      memberId: recipient.memberId,
      type: "privateMessage",
      actor,
      params: { chatroomId, idChatroomMessage: row.idChatroomMessage, nickname: sender.nickname },
    });
  }
}

function normalise(body: { message: string; payload?: Payload }): { message: string; payload: Payload } {
  const text = body.message.trim();
  const payload: Payload = body.payload ?? { type: "text", content: text };
  if (payload.type === "text") {
    const content = text || payload.content.trim();
    // §5: empty or whitespace text is not sent.
    if (!content) throw new AppError("chatEmptyMessage");
    return { message: content, payload: { ...payload, content } };
  }
  // An encrypted message carries no readable text on the server (§7).
  if (payload.type === "encrypted") return { message: "", payload };
  return { message: text, payload };
}

/**
 * An image in a private message must be the sender's own private upload (/private-media, kind dm), not yet sent;
 * a private upload never goes into a public message (its readers could not load it, and it is not meant for them).
 * Returns the upload's key to bind to the message, or null.
 */
async function privateImageOf(env: Env, member: ChatMember, payload: Payload, isPrivate: boolean, requestId: string): Promise<string | null> {
  const src = imageSrcOf(payload);
  if (!src) return null;
  const key = privateMediaKeyFromUrl(src);
  if (!isPrivate) {
    if (key) throw new AppError("chatPrivateImageInPublic");
    return null;
  }
  if (!key) throw new AppError("chatPrivateImageRequired");
  if (!(await ownUnsentChatImage(env, member, key, requestId))) throw new AppError("chatPrivateImageNotOwned");
  return key;
}

/** In the shared rooms, the sender's "latest speech" time (lists read it), only when the insert before it stored a row. */
const latestSpeechStamp = (db: Db, memberId: string, at: number) =>
  db
    .update(profiles)
    .set({ lastChatAt: at })
    .where(and(eq(profiles.memberId, memberId), sql`changes() > 0`));

type SendValues = {
  projectCode: string; chatroomId: string; memberId: string; memberNo: string; requestId: string; message: string; payload: string; at: number;
  recipientNo: string;
};

/**
 * Every read a send needs, in one round trip: the duplicate check, the sender (card, §6/§8 sending rule), who
 * must not see the sender (for the fan-out) and the recipient.
 */
function sendReads(db: Db, v: SendValues) {
  return {
    existing: db.select().from(chatMessages).where(and(eq(chatMessages.memberId, v.memberId), eq(chatMessages.requestId, v.requestId))).limit(1),
    sender: db
      .select({ ...profileSummaryColumns, safeMode: profiles.safeMode, accountStatus: members.status, suspendedUntil: members.suspendedUntil })
      .from(profiles)
      .innerJoin(members, eq(members.id, profiles.memberId))
      .where(eq(profiles.memberId, v.memberId))
      .limit(1),
    ...senderAudienceReads(db, v.memberId, v.at),
    recipient: db
      .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode })
      .from(profiles)
      .where(and(eq(profiles.projectCode, v.projectCode), eq(profiles.simpleCode, v.recipientNo)))
      .limit(1),
  };
}

/** The row a send stores (a mention or private message adds its recipient). */
const messageRow = (v: SendValues) => ({
  projectCode: v.projectCode,
  chatroomId: v.chatroomId,
  memberId: v.memberId,
  memberNo: v.memberNo,
  requestId: v.requestId,
  message: v.message,
  payload: v.payload,
  isPrivate: false,
  toMemberId: null as string | null,
  toMemberNo: null as string | null,
  dateAdd: v.at,
  dateUdp: v.at,
});

/**
 * A message without a recipient needs nothing the reads return before it can be stored: its insert (under the
 * §6/§8 sending rule, in SQL) rides in the same batch, with the latest-speech stamp in the shared rooms. With a
 * recipient, the checks come first. Each shape rendered once (`compiled`): sending is the hottest write.
 */
function sendBatch(db: Db, v: SendValues, write: "none" | "insert" | "insertAndStamp") {
  const reads = sendReads(db, v);
  if (write === "none") return reads;
  // Only rooms without a recipient insert here (never a one-to-one room): the post rules, in SQL.
  const insert = storedInsert(db, v);
  // The stamp follows the insert (its `changes()` reads the insert's): names keep their order in the batch.
  return write === "insert" ? { ...reads, stored: insert } : { ...reads, stored: insert, stamp: latestSpeechStamp(db, v.memberId, v.at) };
}
type SendBatch = ReturnType<typeof sendReads> & { stored?: ReturnType<typeof storedInsert>; stamp?: ReturnType<typeof latestSpeechStamp> };
const storedInsert = (db: Db, v: SendValues) => insertWhere(db, chatMessages, messageRow(v), postableSql(v.memberId, v.at, "post")).onConflictDoNothing().returning();
const sendStatements = {
  checkFirst: compiledNamed<SendValues, SendBatch>((db, v) => sendBatch(db, v, "none")),
  insert: compiledNamed<SendValues, SendBatch>((db, v) => sendBatch(db, v, "insert")),
  insertAndStamp: compiledNamed<SendValues, SendBatch>((db, v) => sendBatch(db, v, "insertAndStamp")),
};
