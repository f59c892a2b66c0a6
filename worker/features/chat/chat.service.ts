import { and, between, desc, eq, inArray, lt, not, sql, type SQLWrapper } from "drizzle-orm";
import { maskMessage, mutedPhrasesOf } from "../members/muted-words";
import { compiled } from "../../db/compiled";
import { md5 } from "js-md5";
import { getDb, type Db } from "../../db/client";
import { privateMediaKeyFromUrl } from "../../contract/media";
import { bindChatImageStatement, forgetChatImageStatement, ownUnsentChatImage } from "./chat-media";
import { publicDevicesOf } from "../e2e/e2e-devices";
import type { PublicKeysAnswer } from "../../contract/e2e.constants";
import { inJson } from "../../db/in-list";
import { insertWhere } from "../../db/insert-where";
import {
  chatConnections,
  chatContactSettings,
  chatMessageRequests,
  chatMessages,
  chatReactions,
  chatReads,
  chatReminders,
  blocks,
  chatThreads,
  follows,
  members,
  mutes,
  notifications,
  profiles,
} from "../../db/schema";
import {
  DEFAULT_CONTACT_SETTINGS,
  DIRECT_CHATROOM,
  EncryptedPayload,
  HOME_CHATROOM_ID,
  PERSONAL_CHATROOM,
  PUBLIC_CHATROOM_ID,
  directChatroomId,
  type ChatListEntry,
  type ChatMessage,
  type ChatReaction,
  type ContactSettings,
  type EncryptedPayloadT,
  type MessageRequest,
  type Payload,
  type PostMessageBody,
  type Reminder,
  type UnreadCounts,
} from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { iso, utcDate, DAY } from "../../lib/time";
import { coinAwardStatements } from "../coins/coin-awards";
import { notify } from "../notifications/notify";
import { profileSummaries, profileSummariesQuery, profileSummaryColumns, summaryRows, toViewer as toSummaryViewer, viewerRowQuery, type SummaryRow, type ViewerRow } from "../members/profile-summary";
import { assertCanPost, postableSql, postingRefusal } from "../social/posting-rules";
import { isBlockedBetween, isReportedBy, notBlockedWith, notMutedBy } from "../members/visibility";
import { filteredSender } from "../notifications/sender-filter";
import { answersTheOther, waitingOn } from "./conversation-starts";
import { refreshPhotoCommentCount } from "./photo-comment-counts";
import { viewMessage, viewThread, type ChatViewer, type StoredMessage, type StoredThread } from "./chat-view";

/** The caller of a chat action. */
export type ChatMember = { memberId: string; memberNo: string; projectCode: string; kycStatus: number; status?: string };

export type RoomKind =
  | { kind: "public" | "home" }
  | { kind: "personal" }
  | { kind: "direct"; memberNos: [string, string] };

/** Which kind of chatroom an id names (§2, §9). Unknown shapes are 404. */
export function roomKind(chatroomId: string): RoomKind {
  if (chatroomId === PUBLIC_CHATROOM_ID) return { kind: "public" };
  if (chatroomId === HOME_CHATROOM_ID) return { kind: "home" };
  if (PERSONAL_CHATROOM.test(chatroomId)) return { kind: "personal" };
  const direct = chatroomId.match(DIRECT_CHATROOM);
  if (direct && direct[1] !== direct[2] && directChatroomId(direct[1]!, direct[2]!) === chatroomId) return { kind: "direct", memberNos: [direct[1]!, direct[2]!] };
  throw new AppError("notFound");
}

/** §2: a member's personal chatroom is the md5 of their member code. */
export const personalChatroomId = (memberNo: string) => md5(memberNo);

/** §5: image sending in verification-required chats needs kycStatus above 0: the shared rooms. */
const verificationRequired = (room: RoomKind) => room.kind === "public" || room.kind === "home";

/** A one-to-one room is only ever reachable by its two members; everyone else gets 404. */
export function assertRoomAccess(room: RoomKind, viewer: { memberNo: string } | null) {
  if (room.kind === "direct" && (!viewer || !room.memberNos.includes(viewer.memberNo))) throw new AppError("notFound");
}

/** The member's avatar rights and safe mode (§6; README Decisions on renditions), or null for a visitor. */
export async function viewerContext(env: Env, member: ChatMember | null): Promise<ChatViewer> {
  if (!member) return null;
  return toViewer(member, (await viewerRowQuery(env, member.memberId))[0]);
}

// The requests tray, connections and single messages share `avatarOf`'s viewer (with the stranger-media rule).
function toViewer(member: ChatMember | null, row: ViewerRow | undefined): ChatViewer {
  if (!member) return null;
  return { ...toSummaryViewer(member.memberId, row)!, memberNo: member.memberNo };
}

const parsePayload = (raw: string): Payload | null => {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && "type" in value ? (value as Payload) : null;
  } catch {
    return null;
  }
};

type MessageRow = typeof chatMessages.$inferSelect;

/**
 * Rows → StoredMessage with every related record (profiles, reactions, message requests, follows) in ONE
 * D1 batch, never one query per message. (A page of a room reads all of it in its own statement: listMessages.)
 */
async function hydrateOnly(env: Env, projectCode: string, rows: MessageRow[]): Promise<StoredMessage[]> {
  if (rows.length === 0) return [];
  const db = getDb(env);
  const ids = rows.map((r) => r.idChatroomMessage);
  const memberIds = rows.flatMap((r) => [r.memberId, ...(r.toMemberId ? [r.toMemberId] : [])]);
  const recipients = [...new Set(rows.filter((r) => r.isPrivate && r.toMemberId).map((r) => r.toMemberId!))];
  const queries: BatchQuery[] = [];
  const at = (query: BatchQuery | null) => (query ? queries.push(query) - 1 : -1);
  const summaryAt = at(profileSummariesQuery(env, projectCode, memberIds));
  // Reactions by the rows' id range (an index range, no id list to expand), filtered to the rows below.
  const reactionAt = at(
    db
      .select({ id: chatReactions.idChatroomMessage, type: chatReactions.type, reactEmoji: chatReactions.reactEmoji, memberNo: profiles.simpleCode })
      .from(chatReactions)
      .innerJoin(profiles, eq(profiles.memberId, chatReactions.memberId))
      .where(between(chatReactions.idChatroomMessage, Math.min(...ids), Math.max(...ids))),
  );
  // Held message requests and follows only matter for private messages (§7 message requests).
  const requestAt = at(
    recipients.length
      ? db
          .select({ memberId: chatMessageRequests.memberId, fromMemberId: chatMessageRequests.fromMemberId, status: chatMessageRequests.status })
          .from(chatMessageRequests)
          .where(inJson(chatMessageRequests.memberId, recipients))
      : null,
  );
  const followAt = at(recipients.length ? db.select({ memberId: follows.memberId, targetMemberId: follows.targetMemberId }).from(follows).where(inJson(follows.memberId, recipients)) : null);
  const results = (await db.batch(queries as [BatchQuery, ...BatchQuery[]])) as unknown[];
  const rowsAt = <R>(index: number) => (index < 0 ? [] : (results[index] as R[]));

  const summaries = new Map(rowsAt<SummaryRow>(summaryAt).map((row) => [row.memberId, row]));
  const onPage = new Set(ids);
  const reactions = new Map<number, ChatReaction[]>();
  for (const r of rowsAt<ChatReaction & { id: number }>(reactionAt)) {
    if (!onPage.has(r.id)) continue;
    reactions.set(r.id, [...(reactions.get(r.id) ?? []), { type: r.type, reactEmoji: r.reactEmoji, memberNo: r.memberNo }]);
  }
  const held = new Set<string>();
  const followed = new Set<string>();
  for (const r of rowsAt<{ memberId: string; fromMemberId: string; status: string }>(requestAt)) if (r.status !== "accepted") held.add(`${r.memberId}|${r.fromMemberId}`);
  for (const f of rowsAt<{ memberId: string; targetMemberId: string }>(followAt)) followed.add(`${f.memberId}|${f.targetMemberId}`);
  return toStored(rows, summaries, reactions, held, followed);
}

type BatchQuery = Parameters<ReturnType<typeof getDb>["batch"]>[0][number];

function toStored(
  rows: MessageRow[],
  summaries: Map<string, SummaryRow>,
  reactions: Map<number, ChatReaction[]>,
  held: Set<string>,
  follows: Set<string>,
): StoredMessage[] {
  return rows.map((r) => ({
    idChatroomMessage: r.idChatroomMessage,
    requestId: r.requestId,
    chatroomId: r.chatroomId,
    memberId: r.memberId,
    memberNo: r.memberNo,
    message: r.message,
    payload: parsePayload(r.payload),
    isPrivate: r.isPrivate,
    toMemberId: r.toMemberId,
    toMemberNo: r.toMemberNo,
    imageAccepted: r.imageAccepted,
    threadCount: r.threadCount,
    deleted: r.deleted,
    dateAdd: iso(r.dateAdd)!,
    dateUdp: iso(r.dateUdp)!,
    profile: summaries.get(r.memberId) ?? null,
    toProfile: r.toMemberId ? (summaries.get(r.toMemberId) ?? null) : null,
    reactions: reactions.get(r.idChatroomMessage) ?? [],
    held: Boolean(r.toMemberId && held.has(`${r.toMemberId}|${r.memberId}`)),
    recipientFollowsSender: Boolean(r.toMemberId && follows.has(`${r.toMemberId}|${r.memberId}`)),
  }));
}

/** Read position of a member in a conversation (inbox messages are read per one-to-one pair). */
async function lastReadOf(env: Env, memberId: string, readKey: string) {
  return (await lastReadQuery(getDb(env), memberId, readKey))[0]?.id ?? 0;
}

const lastReadQuery = (db: Db, memberId: string, readKey: string) =>
  db.select({ id: chatReads.lastReadId }).from(chatReads).where(and(eq(chatReads.memberId, memberId), eq(chatReads.chatroomId, readKey))).limit(1);

/** One message the viewer may see (404 otherwise), with its threads. */
export async function messageDetail(env: Env, projectCode: string, id: number, member: ChatMember | null, showMuted = false) {
  // A note the member reported is gone for them (README Decisions "Block evasion and per-item reports").
  if (member && (await isReportedBy(env, member.memberId, "chat", id))) throw new AppError("notFound");
  const stored = await loadStored(env, projectCode, id, member);
  const viewer = await viewerContext(env, member);
  if (viewer) viewer.lastReadId = await lastReadOf(env, viewer.memberId, readKeyFor(stored));
  const message = viewMessage(stored, viewer);
  const threadRows = await getDb(env)
    .select({ thread: chatThreads, profile: profileSummaryColumns })
    .from(chatThreads)
    .innerJoin(profiles, eq(profiles.memberId, chatThreads.memberId))
    .where(and(eq(chatThreads.idChatroomMessage, id), eq(chatThreads.deleted, false), ...(viewer ? [notBlockedWith(viewer.memberId, chatThreads.memberId), notMutedBy(viewer.memberId, chatThreads.memberId)] : [])))
    .orderBy(chatThreads.idChatMessageThread)
    .limit(500);
  message.threads = threadRows.map((t) => viewThread(storedThread(t.thread, t.profile, stored.memberId), viewer));
  // README Decisions "Muted words": withheld for the viewer unless they asked for this message ("Show anyway").
  return showMuted || !member ? message : maskMessage(message, member.memberNo, await mutedPhrasesOf(env, member.memberId));
}

function storedThread(row: typeof chatThreads.$inferSelect, profile: SummaryRow | null, noteAuthorId: string): StoredThread {
  return {
    idChatMessageThread: row.idChatMessageThread,
    idChatroomMessage: row.idChatroomMessage,
    memberId: row.memberId,
    message: row.message,
    isPrivate: row.isPrivate,
    dateAdd: iso(row.dateAdd)!,
    profile,
    noteAuthorId,
    payload: encryptedThreadPayload(row.payload),
  };
}

/** A stored encrypted reply's envelope (anything else stored there reads as none). */
function encryptedThreadPayload(raw: string | null): EncryptedPayloadT | null {
  if (!raw) return null;
  try {
    const parsed = EncryptedPayload.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const readKeyFor = (s: Pick<StoredMessage, "memberNo" | "toMemberNo" | "chatroomId">) =>
  s.toMemberNo ? directChatroomId(s.memberNo, s.toMemberNo) : s.chatroomId;

/**
 * The author of a message `member` may see and report: in the tenant, not deleted, in a room they may reach, not
 * blocked either way, and, when private, written by or to them (anyone else sees only a placeholder). Else 404.
 */
export async function reportableMessage(env: Env, projectCode: string, id: number, member: ChatMember): Promise<{ memberId: string }> {
  const stored = await loadStored(env, projectCode, id, member);
  if (viewMessage(stored, toViewer(member, undefined)).placeholder) throw new AppError("notFound");
  return { memberId: stored.memberId };
}

/** A message by id within the tenant that the viewer may reach (room access, blocks): else 404. */
async function loadStored(env: Env, projectCode: string, id: number, member: ChatMember | null): Promise<StoredMessage> {
  const row = await getDb(env)
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.idChatroomMessage, id), eq(chatMessages.projectCode, projectCode), eq(chatMessages.deleted, false)))
    .get();
  if (!row) throw new AppError("notFound");
  const room = roomKind(row.chatroomId);
  assertRoomAccess(room, member);
  if (member && row.memberId !== member.memberId && (await isBlockedBetween(env, member.memberId, row.memberId))) throw new AppError("notFound");
  const [stored] = await hydrateOnly(env, projectCode, [row]);
  return stored!;
}


/** What the ChatRoom needs to fan a message out without asking D1 per socket. */
/** `mutedFor`: members whose muted words are in the message, set by chat-publish.ts (README Decisions "Muted words"). */
export type Fanout = { stored: StoredMessage; hiddenFrom: string[]; mutedFor?: string[] };

/** Members who must never receive this sender's messages: blocked either way, or muting the sender. */
async function hiddenFromSender(env: Env, senderId: string): Promise<string[]> {
  const at = Date.now();
  const rows = await getDb(env).all<{ id: string }>(sql`
    select target_member_id as id from blocks where member_id = ${senderId} and (expires_at is null or expires_at > ${at})
    union select member_id as id from blocks where target_member_id = ${senderId} and (expires_at is null or expires_at > ${at})
    union select member_id as id from mutes where target_member_id = ${senderId} and (expires_at is null or expires_at > ${at})
    limit 5000`);
  return rows.map((r) => r.id);
}

async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env)
    .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode, kycStatus: profiles.kycStatus, multiGender: profiles.multiGender })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!row) throw new AppError("notFound");
  return row;
}

export async function contactSettings(env: Env, memberId: string): Promise<ContactSettings> {
  const row = await getDb(env).select().from(chatContactSettings).where(eq(chatContactSettings.memberId, memberId)).get();
  if (!row) return { ...DEFAULT_CONTACT_SETTINGS };
  let roles: number[] = [];
  try {
    roles = (JSON.parse(row.acceptRoles) as unknown[]).filter((n): n is number => typeof n === "number");
  } catch {
    roles = [];
  }
  return { acceptFrom: row.acceptFrom, acceptRoles: roles, presenceAudience: row.presenceAudience };
}

export async function saveContactSettings(env: Env, member: ChatMember, input: Partial<ContactSettings>) {
  const next = { ...(await contactSettings(env, member.memberId)), ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as ContactSettings;
  const values = {
    memberId: member.memberId,
    projectCode: member.projectCode,
    acceptFrom: next.acceptFrom,
    acceptRoles: JSON.stringify([...new Set(next.acceptRoles)].sort()),
    presenceAudience: next.presenceAudience,
    updatedAt: Date.now(),
  };
  await getDb(env).insert(chatContactSettings).values(values).onConflictDoUpdate({ target: chatContactSettings.memberId, set: values });
  return next;
}

/** Follow and friendship facts between two members, in one query. */
async function pairFacts(env: Env, a: string, b: string) {
  const row = await getDb(env).get<{ aFollowsB: number; bFollowsA: number; friends: number }>(sql`select
    exists (select 1 from follows where member_id = ${a} and target_member_id = ${b}) as aFollowsB,
    exists (select 1 from follows where member_id = ${b} and target_member_id = ${a}) as bFollowsA,
    exists (select 1 from friendships where status = 'accepted' and ((requester_id = ${a} and addressee_id = ${b}) or (requester_id = ${b} and addressee_id = ${a}))) as friends`);
  return { aFollowsB: Boolean(row?.aFollowsB), bFollowsA: Boolean(row?.bFollowsA), friends: Boolean(row?.friends) };
}

/** Does the recipient take private messages from this sender directly (§6 contact settings)? */
export async function acceptsDirectly(env: Env, recipientId: string, sender: { memberId: string; kycStatus: number; multiGender: number | null }) {
  const settings = await contactSettings(env, recipientId);
  if (sender.multiGender != null && settings.acceptRoles.includes(sender.multiGender)) return true;
  if (settings.acceptFrom === "everyone") return true;
  if (settings.acceptFrom === "verified") return sender.kycStatus >= 1 || (await pairFacts(env, recipientId, sender.memberId)).aFollowsB;
  const facts = await pairFacts(env, recipientId, sender.memberId);
  if (settings.acceptFrom === "following") return facts.aFollowsB;
  return facts.friends;
}

/** The file a message carries: an image's src, or an encrypted image's `media` (README Decisions "Everything private is encrypted"). */
const imageSrcOf = (payload: Payload) =>
  payload.type === "img" || payload.type === "encodedImage" ? payload.src : payload.type === "encrypted" ? (payload.media ?? null) : null;

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

/**
 * §7 POST /sns/chatrooms/{id}/messages/{memberId}. D1 first; the caller then publishes the fan-out.
 * The same requestId twice returns the stored message and publishes nothing.
 */
export async function sendMessage(env: Env, member: ChatMember, chatroomId: string, body: PostMessageBody): Promise<{ message: ChatMessage; fanout: Fanout | null }> {
  const result = await storeMessage(env, member, chatroomId, body);
  // A new comment in a personal room: the owner's photo cards carry the count (photo-comment-counts.ts).
  if (result.fanout && PERSONAL_CHATROOM.test(chatroomId)) await refreshPhotoCommentCount(env, member.projectCode, chatroomId);
  return result;
}

async function storeMessage(env: Env, member: ChatMember, chatroomId: string, body: PostMessageBody): Promise<{ message: ChatMessage; fanout: Fanout | null }> {
  const room = roomKind(chatroomId);
  assertRoomAccess(room, member);
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const db = getDb(env);
  const at = Date.now();
  const recipientNo =
    room.kind === "direct" ? (room.memberNos[0] === member.memberNo ? room.memberNos[1] : room.memberNos[0]) : (body.toMemberNo ?? null);
  const { message, payload } = normalise(body);
  if (imageSrcOf(payload) && verificationRequired(room) && member.kycStatus <= 0) throw new AppError("chatImageNeedsKyc");
  if (!recipientNo && (body.isPrivate || payload.type === "encrypted")) throw new AppError("chatPrivateNeedsRecipient");
  const privateImage = await privateImageOf(env, member, payload, room.kind === "direct" || body.isPrivate, body.requestId);
  const shared = room.kind === "public" || room.kind === "home";
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
  const statements = sendStatements[recipientNo ? "checkFirst" : shared ? "insertAndStamp" : "insert"](db, send);
  const results = (await db.batch(statements as unknown as SendReads)) as unknown as ReadResults<SendReads>;
  const [existingRows, senderRows, blockedByMe, blockingMe, mutingMe, recipientRows] = results;
  const storedNow = (results as unknown as unknown[])[SEND_READS] as MessageRow[] | undefined;
  const existing = existingRows[0];
  if (existing) {
    if (existing.chatroomId !== chatroomId || existing.projectCode !== member.projectCode) throw new AppError("chatRequestIdReused");
    const [stored] = await hydrateOnly(env, member.projectCode, [existing]);
    return { message: viewMessage(stored!, await viewerContext(env, member)), fanout: null };
  }
  const senderRow = senderRows[0];
  // §5/§6/§8 posting rules (posting-rules.ts); a one-to-one room takes only the sending rules. Without a recipient
  // the insert above already repeated them in SQL, so a refused attempt stored nothing.
  const refusal = postingRefusal(senderRow, room.kind === "direct" ? "send" : "post", { isPrivate: body.isPrivate, at: send.at });
  if (refusal) throw new AppError(refusal);
  const sender = senderRow!;
  const blockedEitherWay = new Set([...blockedByMe, ...blockingMe].map((r) => r.id));
  const hiddenFrom = [...new Set([...blockedEitherWay, ...mutingMe.map((r) => r.id)])];
  const { accountStatus: _status, suspendedUntil: _until, safeMode, ...senderCard } = sender;
  const viewer: ChatViewer = { memberId: member.memberId, memberNo: member.memberNo, canSeeAvatars: Boolean(sender.avator && sender.qualify), safeMode };
  if (!recipientNo) {
    const inserted = storedNow?.[0];
    if (!inserted) throw new AppError("conflict");
    // A fresh message without a recipient: its only related record is the sender's card, already read.
    const [stored] = toStored([inserted], new Map([[member.memberId, senderCard]]), new Map(), new Set(), new Set());
    return { message: viewMessage(stored!, viewer), fanout: { stored: stored!, hiddenFrom } };
  }

  let isPrivate = body.isPrivate;
  const recipient: { memberId: string; memberNo: string } | null = recipientRows[0] ?? null;
  if (!recipient) throw new AppError("notFound");
  if (room.kind === "direct") isPrivate = true;
  if (recipient.memberId === member.memberId) throw new AppError("chatNotToSelf");
  // A block is total: the blocked member does not exist for the sender.
  if (blockedEitherWay.has(recipient.memberId)) throw new AppError("notFound");
  if (payload.type === "encrypted" && !isPrivate) throw new AppError("chatPrivateNeedsRecipient");

  // With a recipient: a private message goes to their inbox and carries their id; a public mention keeps just
  // the number. The insert and (shared rooms) the latest-speech stamp in one batch.
  const inbox = isPrivate;
  const mention = { ...messageRow(send), isPrivate, toMemberId: inbox ? recipient.memberId : null, toMemberNo: recipient.memberNo };
  const insert = db.insert(chatMessages).values(mention).onConflictDoNothing().returning();
  const bind = privateImage ? [bindChatImageStatement(db, privateImage, member.memberId, body.requestId)] : [];
  const [insertedRows] = shared || bind.length ? await db.batch([insert, ...(shared ? [latestSpeechStamp(db, member.memberId, at)] : []), ...bind]) : [await insert];
  const inserted = insertedRows[0];
  const row =
    inserted ??
    (await db.select().from(chatMessages).where(and(eq(chatMessages.memberId, member.memberId), eq(chatMessages.requestId, body.requestId))).get());
  if (!row) throw new AppError("conflict");
  if (!inserted) {
    // Lost a race with the same requestId: the other call stored and published it.
    const [stored] = await hydrateOnly(env, member.projectCode, [row]);
    return { message: viewMessage(stored!, viewer), fanout: null };
  }
  if (!inbox) {
    const [stored] = await hydrateOnly(env, member.projectCode, [row]);
    return { message: viewMessage(stored!, viewer), fanout: { stored: stored!, hiddenFrom } };
  }
  {
    // Answering someone who wrote first is never a request, and it accepts theirs (conversation-starts.ts).
    const direct =
      (await answersTheOther(env, member.memberId, recipient.memberId)) ||
      (await acceptsDirectly(env, recipient.memberId, { memberId: member.memberId, kycStatus: sender.kycStatus, multiGender: sender.multiGender }));
    const request = await db
      .select({ status: chatMessageRequests.status })
      .from(chatMessageRequests)
      .where(and(eq(chatMessageRequests.memberId, recipient.memberId), eq(chatMessageRequests.fromMemberId, member.memberId)))
      .get();
    const actor = { memberId: member.memberId, memberNo: member.memberNo };
    if (!direct && !request) {
      await db
        .insert(chatMessageRequests)
        .values({ projectCode: member.projectCode, memberId: recipient.memberId, fromMemberId: member.memberId, status: "pending", createdAt: at, updatedAt: at })
        .onConflictDoNothing();
      await notify(env, { projectCode: member.projectCode, memberId: recipient.memberId, type: "messageRequest", actor, params: { chatroomId: directChatroomId(member.memberNo, recipient.memberNo) } });
    } else if (direct || request?.status === "accepted") {
      await notify(env, {
        projectCode: member.projectCode,
        memberId: recipient.memberId,
        type: "privateMessage",
        actor,
        params: { chatroomId: directChatroomId(member.memberNo, recipient.memberNo), idChatroomMessage: row.idChatroomMessage, nickname: sender.nickname },
      });
    }
  }
  const [stored] = await hydrateOnly(env, member.projectCode, [row]);
  return { message: viewMessage(stored!, viewer), fanout: { stored: stored!, hiddenFrom } };
}

type ReadResults<Q extends readonly unknown[]> = { -readonly [K in keyof Q]: Awaited<Q[K]> };

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
type SendReads = ReturnType<typeof sendReads>;
const SEND_READS = 6;

/**
 * Every read a send needs, in one round trip: the duplicate check, the sender (card, §6/§8 sending rule), who
 * must not see the sender (for the fan-out) and the recipient.
 */
function sendReads(db: Db, v: SendValues) {
  return [
    db.select().from(chatMessages).where(and(eq(chatMessages.memberId, v.memberId), eq(chatMessages.requestId, v.requestId))).limit(1),
    db
      .select({ ...profileSummaryColumns, safeMode: profiles.safeMode, accountStatus: members.status, suspendedUntil: members.suspendedUntil })
      .from(profiles)
      .innerJoin(members, eq(members.id, profiles.memberId))
      .where(eq(profiles.memberId, v.memberId))
      .limit(1),
    db.select({ id: blocks.targetMemberId }).from(blocks).where(and(eq(blocks.memberId, v.memberId), live(blocks.expiresAt, v.at))).limit(5000),
    db.select({ id: blocks.memberId }).from(blocks).where(and(eq(blocks.targetMemberId, v.memberId), live(blocks.expiresAt, v.at))).limit(5000),
    db.select({ id: mutes.memberId }).from(mutes).where(and(eq(mutes.targetMemberId, v.memberId), live(mutes.expiresAt, v.at))).limit(5000),
    db
      .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode })
      .from(profiles)
      .where(and(eq(profiles.projectCode, v.projectCode), eq(profiles.simpleCode, v.recipientNo)))
      .limit(1),
  ] as const;
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
  // Only rooms without a recipient insert here (never a one-to-one room): the post rules, in SQL.
  const insert = insertWhere(db, chatMessages, messageRow(v), postableSql(v.memberId, v.at, "post")).onConflictDoNothing().returning();
  const writes = write === "none" ? [] : write === "insert" ? [insert] : [insert, latestSpeechStamp(db, v.memberId, v.at)];
  return [...sendReads(db, v), ...writes] as unknown as SendReads;
}
const sendStatements = {
  checkFirst: compiled<SendValues, Db, SendReads>((db, v) => sendBatch(db, v, "none")),
  insert: compiled<SendValues, Db, SendReads>((db, v) => sendBatch(db, v, "insert")),
  insertAndStamp: compiled<SendValues, Db, SendReads>((db, v) => sendBatch(db, v, "insertAndStamp")),
};

/** SQL: a block or mute that has not lifted yet. */
const live = (expiresAt: SQLWrapper, at: number) => sql`(${expiresAt} is null or ${expiresAt} > ${at})`;

/** Own message or 403; another tenant's or an unreachable one is 404. */
async function ownMessage(env: Env, member: ChatMember, id: number) {
  const stored = await loadStored(env, member.projectCode, id, member);
  if (stored.memberId !== member.memberId) throw new AppError("chatNotAuthor");
  return stored;
}

/** §5: updating an own message with empty text deletes it. */
export async function editMessage(env: Env, member: ChatMember, id: number, text: string) {
  const stored = await ownMessage(env, member, id);
  const trimmed = text.trim();
  if (!trimmed) return { deleted: await deleteMessage(env, member, id, false) };
  if (stored.payload?.type === "encrypted" || (stored.payload && stored.payload.type !== "text")) throw new AppError("chatNotEditable");
  const at = Date.now();
  const payload = { ...(stored.payload ?? { type: "text" as const, content: "" }), content: trimmed } as Payload;
  await getDb(env)
    .update(chatMessages)
    .set({ message: trimmed, payload: JSON.stringify(payload), dateUdp: at })
    .where(and(eq(chatMessages.idChatroomMessage, id), eq(chatMessages.memberId, member.memberId)));
  const next: StoredMessage = { ...stored, message: trimmed, payload, dateUdp: iso(at)! };
  return { edited: { stored: next, hiddenFrom: await hiddenFromSender(env, member.memberId) } satisfies Fanout };
}

/** Soft delete of an own message; `all` also removes every thread reply under it. */
export async function deleteMessage(env: Env, member: ChatMember, id: number, all: boolean) {
  const stored = await ownMessage(env, member, id);
  const db = getDb(env);
  const at = Date.now();
  // A private image goes with its message: the record and the file (its recipient could no longer load it anyway).
  const src = stored.payload ? imageSrcOf(stored.payload) : null;
  const image = src ? privateMediaKeyFromUrl(src) : null;
  await db.batch([
    db.update(chatMessages).set({ deleted: true, message: "", payload: "{}", dateUdp: at }).where(and(eq(chatMessages.idChatroomMessage, id), eq(chatMessages.memberId, member.memberId))),
    ...(all ? [db.update(chatThreads).set({ deleted: true }).where(eq(chatThreads.idChatroomMessage, id))] : []),
    ...(image ? [forgetChatImageStatement(db, image, member.memberId)] : []),
  ]);
  if (image) await env.MEDIA.delete(image);
  if (PERSONAL_CHATROOM.test(stored.chatroomId)) await refreshPhotoCommentCount(env, member.projectCode, stored.chatroomId);
  return { chatroomId: stored.chatroomId, idChatroomMessage: id };
}

/** §7 PUT react: one emoji per member per message; the same emoji again removes it. */
export async function reactToMessage(env: Env, member: ChatMember, id: number, reactEmoji: string) {
  const stored = await loadStored(env, member.projectCode, id, member);
  const view = viewMessage(stored, await viewerContext(env, member));
  if (view.placeholder) throw new AppError("notFound");
  const db = getDb(env);
  const current = await db
    .select({ reactEmoji: chatReactions.reactEmoji })
    .from(chatReactions)
    .where(and(eq(chatReactions.idChatroomMessage, id), eq(chatReactions.memberId, member.memberId)))
    .get();
  if (current?.reactEmoji === reactEmoji) {
    await db.delete(chatReactions).where(and(eq(chatReactions.idChatroomMessage, id), eq(chatReactions.memberId, member.memberId)));
  } else {
    const values = { projectCode: member.projectCode, idChatroomMessage: id, memberId: member.memberId, type: "emoji", reactEmoji, dateAdd: Date.now() };
    await db.insert(chatReactions).values(values).onConflictDoUpdate({ target: [chatReactions.idChatroomMessage, chatReactions.memberId], set: { reactEmoji, dateAdd: values.dateAdd } });
  }
  const [fresh] = await hydrateOnly(env, member.projectCode, [(await db.select().from(chatMessages).where(eq(chatMessages.idChatroomMessage, id)).get())!]);
  return { stored: fresh!, replyPayload: fresh!.reactions };
}

/**
 * §7 POST threads. A member cannot private-reply to their own note (§6); a private reply needs an avatar.
 * §9: the note's author gets 1 M coin when their post receives replies, once per post however many reply (the
 * ledger's unique source key is the post), in the same batch as the reply; their master also gets 1.
 */
export async function addThread(env: Env, member: ChatMember, input: { idChatroomMessage: number; message: string; isPrivate: boolean; payload?: EncryptedPayloadT }) {
  const parent = await loadStored(env, member.projectCode, input.idChatroomMessage, member);
  const viewer = await viewerContext(env, member);
  if (viewMessage(parent, viewer).placeholder) throw new AppError("notFound");
  // An encrypted reply (README Decisions "Everything private is encrypted") is private and carries no readable text.
  if (input.payload && !input.isPrivate) throw new AppError("chatPrivateNeedsRecipient");
  const text = input.payload ? "" : input.message.trim();
  if (!text && !input.payload) throw new AppError("chatEmptyMessage");
  await assertCanPost(env, member, "post", { isPrivate: input.isPrivate });
  if (input.isPrivate && parent.memberId === member.memberId) throw new AppError("chatNoPrivateReplyToOwnNote");
  const db = getDb(env);
  const at = Date.now();
  const results = await db.batch([
    db
      .insert(chatThreads)
      .values({
        projectCode: member.projectCode,
        idChatroomMessage: parent.idChatroomMessage,
        memberId: member.memberId,
        message: text,
        isPrivate: input.isPrivate,
        dateAdd: at,
        payload: input.payload ? JSON.stringify(input.payload) : null,
      })
      .returning(),
    db
      .update(chatMessages)
      .set({ threadCount: sql`${chatMessages.threadCount} + 1` })
      .where(eq(chatMessages.idChatroomMessage, parent.idChatroomMessage))
      .returning({ threadCount: chatMessages.threadCount }),
    ...(parent.memberId !== member.memberId
      ? coinAwardStatements(db, {
          projectCode: member.projectCode,
          memberId: parent.memberId,
          reason: "replyReceived",
          sourceKey: `${parent.idChatroomMessage}`,
        })
      : []),
  ]);
  const thread = (results[0] as (typeof chatThreads.$inferSelect)[])[0]!;
  const threadCount = (results[1] as { threadCount: number }[])[0]?.threadCount ?? parent.threadCount + 1;
  const card = (await summaryRows(env, member.projectCode, [member.memberId])).get(member.memberId);
  const stored = storedThread(thread, card ?? null, parent.memberId);
  return { stored, parent, threadCount, view: viewThread(stored, viewer), hiddenFrom: await hiddenFromSender(env, member.memberId) };
}

/** Mark a conversation (or a room) read up to a message id (default: everything so far). */
export async function markRead(env: Env, member: ChatMember, chatroomId: string, upTo?: number) {
  const room = roomKind(chatroomId);
  assertRoomAccess(room, member);
  const db = getDb(env);
  const latest =
    upTo ??
    (
      await db
        .select({ id: sql<number>`max(${chatMessages.idChatroomMessage})` })
        .from(chatMessages)
        .where(room.kind === "direct" ? eq(chatMessages.toMemberId, member.memberId) : and(eq(chatMessages.projectCode, member.projectCode), eq(chatMessages.chatroomId, chatroomId)))
        .get()
    )?.id ??
    0;
  const at = Date.now();
  await db
    .insert(chatReads)
    .values({ memberId: member.memberId, chatroomId, projectCode: member.projectCode, lastReadId: latest, updatedAt: at })
    .onConflictDoUpdate({ target: [chatReads.memberId, chatReads.chatroomId], set: { lastReadId: sql`max(${chatReads.lastReadId}, ${latest})`, updatedAt: at } });
  return { chatroomId, lastReadId: latest };
}

/** Unread inbox messages per conversation (held requests excluded), plus pending requests. */
export async function unreadCounts(env: Env, member: Pick<ChatMember, "memberId" | "memberNo">): Promise<UnreadCounts> {
  const at = Date.now();
  const rows = await getDb(env).all<{ chatroomId: string; n: number }>(sql`
    select 'dm-' || min(m.member_no, ${member.memberNo}) || '-' || max(m.member_no, ${member.memberNo}) as chatroomId, count(*) as n
    from chat_messages m
    where m.to_member_id = ${member.memberId} and m.deleted = 0
      and m.id_chatroom_message > coalesce((select r.last_read_id from chat_reads r where r.member_id = ${member.memberId}
        and r.chatroom_id = 'dm-' || min(m.member_no, ${member.memberNo}) || '-' || max(m.member_no, ${member.memberNo})), 0)
      and not exists (select 1 from chat_message_requests q where q.member_id = ${member.memberId} and q.from_member_id = m.member_id and q.status <> 'accepted')
      and not exists (select 1 from blocks b where ((b.member_id = ${member.memberId} and b.target_member_id = m.member_id) or (b.member_id = m.member_id and b.target_member_id = ${member.memberId}))
        and (b.expires_at is null or b.expires_at > ${at}))
    group by chatroomId`);
  // A filtered sender's request waits in "Filtered" and lights no dot (sender-filter.ts).
  const requests = await getDb(env).get<{ n: number }>(
    sql`select count(*) as n from chat_message_requests q where q.member_id = ${member.memberId} and q.status = 'pending'
      and not ${filteredSender(member.memberId, sql`q.from_member_id`, "requests", at)}`,
  );
  const byChatroom: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    byChatroom[r.chatroomId] = r.n;
    total += r.n;
  }
  return { total, requests: requests?.n ?? 0, byChatroom };
}

/** The notification page's chat list: one entry per counterpart, newest first, with connections. */
export async function chatList(env: Env, member: ChatMember, pageSize: number): Promise<ChatListEntry[]> {
  const db = getDb(env);
  const at = Date.now();
  const rows = await db.all<{ other: string; lastId: number }>(sql`
    select other, max(id) as lastId from (
      select to_member_id as other, id_chatroom_message as id from chat_messages where member_id = ${member.memberId} and to_member_id is not null and deleted = 0
      union all
      select member_id as other, id_chatroom_message as id from chat_messages where to_member_id = ${member.memberId} and deleted = 0
    ) t
    where not exists (select 1 from chat_message_requests q where q.member_id = ${member.memberId} and q.from_member_id = t.other and q.status <> 'accepted')
      and not exists (select 1 from blocks b where ((b.member_id = ${member.memberId} and b.target_member_id = t.other) or (b.member_id = t.other and b.target_member_id = ${member.memberId}))
        and (b.expires_at is null or b.expires_at > ${at}))
    group by other order by lastId desc limit ${pageSize}`);
  const connections = await db
    .select({ idConnection: chatConnections.idConnection, target: chatConnections.targetMemberId })
    .from(chatConnections)
    .where(and(eq(chatConnections.memberId, member.memberId), notBlockedWith(member.memberId, chatConnections.targetMemberId)))
    .orderBy(desc(chatConnections.idConnection))
    .limit(pageSize);
  const connectionOf = new Map(connections.map((c) => [c.target, c.idConnection]));
  const others = [...new Set([...rows.map((r) => r.other), ...connections.map((c) => c.target)])];
  const viewer = await viewerContext(env, member);
  const summaries = await profileSummaries(env, member.projectCode, others, viewer);
  const lastIds = rows.map((r) => r.lastId);
  const lastRows = lastIds.length ? await db.select().from(chatMessages).where(inArray(chatMessages.idChatroomMessage, lastIds.slice(0, 90))) : [];
  const stored = new Map((await hydrateOnly(env, member.projectCode, lastRows)).map((s) => [s.idChatroomMessage, s]));
  const counts = await unreadCounts(env, member);
  const waiting = await waitingOn(env, member.memberId, others);
  const phrases = await mutedPhrasesOf(env, member.memberId, at);
  const entries: ChatListEntry[] = [];
  const lastByOther = new Map(rows.map((r) => [r.other, r.lastId]));
  for (const other of others) {
    const profile = summaries.get(other);
    if (!profile) continue;
    const last = stored.get(lastByOther.get(other) ?? -1);
    // The room is named by the numbers its messages were sent under: a deleted account's profile no longer carries
    // its number, and the conversation stays readable under its old name.
    const otherNo = last ? (last.memberId === other ? last.memberNo : last.toMemberNo) : null;
    const chatroomId = directChatroomId(member.memberNo, otherNo ?? profile.simpleCode);
    entries.push({
      chatroomId,
      idConnection: connectionOf.get(other) ?? null,
      profile,
      lastMessage: last ? maskMessage(viewMessage(last, viewer && { ...viewer, lastReadId: Number.MAX_SAFE_INTEGER }), member.memberNo, phrases) : null,
      unread: counts.byChatroom[chatroomId] ?? 0,
      waiting: waiting.has(other),
    });
  }
  return entries.slice(0, pageSize);
}

/**
 * Pending message requests: the requests tray, or with `filtered` its "Filtered" section (senders the member filters,
 * sender-filter.ts). Declined requests are listed nowhere.
 */
export async function listRequests(env: Env, member: ChatMember, filtered = false): Promise<MessageRequest[]> {
  const db = getDb(env);
  const isFiltered = filteredSender(member.memberId, chatMessageRequests.fromMemberId, "requests");
  const rows = await db
    .select()
    .from(chatMessageRequests)
    .where(
      and(
        eq(chatMessageRequests.memberId, member.memberId),
        eq(chatMessageRequests.status, "pending"),
        notBlockedWith(member.memberId, chatMessageRequests.fromMemberId),
        filtered ? isFiltered : not(isFiltered),
      ),
    )
    .orderBy(desc(chatMessageRequests.updatedAt))
    .limit(100);
  const summaries = await profileSummaries(env, member.projectCode, rows.map((r) => r.fromMemberId), await viewerContext(env, member));
  const counts = rows.length
    ? await db.all<{ from: string; n: number }>(sql`select member_id as "from", count(*) as n from chat_messages where to_member_id = ${member.memberId} and deleted = 0
        and member_id in (${sql.join(rows.map((r) => sql`${r.fromMemberId}`), sql`, `)}) group by member_id`)
    : [];
  const countOf = new Map(counts.map((c) => [c.from, c.n]));
  return rows.flatMap((r) => {
    const profile = summaries.get(r.fromMemberId);
    if (!profile) return [];
    return [{ idRequest: r.idRequest, status: r.status, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode), dateAdd: iso(r.createdAt)!, count: countOf.get(r.fromMemberId) ?? 0 }];
  });
}

export async function decideRequest(env: Env, member: ChatMember, idRequest: number, decision: "accept" | "decline") {
  const db = getDb(env);
  const row = await db
    .select()
    .from(chatMessageRequests)
    .where(and(eq(chatMessageRequests.idRequest, idRequest), eq(chatMessageRequests.memberId, member.memberId), eq(chatMessageRequests.projectCode, member.projectCode)))
    .get();
  if (!row) throw new AppError("notFound");
  const status = decision === "accept" ? "accepted" : "declined";
  await db.update(chatMessageRequests).set({ status, updatedAt: Date.now() }).where(eq(chatMessageRequests.idRequest, idRequest));
  const card = (await summaryRows(env, member.projectCode, [row.fromMemberId])).get(row.fromMemberId);
  return { idRequest, status, chatroomId: card ? directChatroomId(member.memberNo, card.simpleCode) : null };
}

/** Tap-to-accept a stranger's image: only its recipient may. */
export async function acceptImage(env: Env, member: ChatMember, id: number) {
  const stored = await loadStored(env, member.projectCode, id, member);
  if (stored.toMemberId !== member.memberId) throw new AppError("notFound");
  await getDb(env).update(chatMessages).set({ imageAccepted: true }).where(eq(chatMessages.idChatroomMessage, id));
  return { idChatroomMessage: id, imageAccepted: true };
}

// ── connections (§3 Connection: memberNo) ────────────────────────────────────────────────────

export async function listConnections(env: Env, member: ChatMember) {
  const rows = await getDb(env)
    .select({ idConnection: chatConnections.idConnection, target: chatConnections.targetMemberId, createdAt: chatConnections.createdAt })
    .from(chatConnections)
    .where(and(eq(chatConnections.memberId, member.memberId), notBlockedWith(member.memberId, chatConnections.targetMemberId)))
    .orderBy(desc(chatConnections.idConnection))
    .limit(500);
  const summaries = await profileSummaries(env, member.projectCode, rows.map((r) => r.target), await viewerContext(env, member));
  return rows.flatMap((r) => {
    const profile = summaries.get(r.target);
    return profile
      ? [{ idConnection: r.idConnection, memberNo: profile.simpleCode, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode), dateAdd: iso(r.createdAt)! }]
      : [];
  });
}

export async function createConnection(env: Env, member: ChatMember, memberNo: string) {
  const target = await memberByNo(env, member.projectCode, memberNo);
  if (target.memberId === member.memberId) throw new AppError("chatNotToSelf");
  if (await isBlockedBetween(env, member.memberId, target.memberId)) throw new AppError("notFound");
  const db = getDb(env);
  await db
    .insert(chatConnections)
    .values({ projectCode: member.projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: Date.now() })
    .onConflictDoNothing();
  const row = (await db
    .select({ idConnection: chatConnections.idConnection })
    .from(chatConnections)
    .where(and(eq(chatConnections.memberId, member.memberId), eq(chatConnections.targetMemberId, target.memberId)))
    .get())!;
  return { idConnection: row.idConnection, memberNo, chatroomId: directChatroomId(member.memberNo, memberNo) };
}

export async function getConnection(env: Env, member: ChatMember, idConnection: number) {
  const row = await getDb(env)
    .select({ target: chatConnections.targetMemberId })
    .from(chatConnections)
    .where(and(eq(chatConnections.idConnection, idConnection), eq(chatConnections.memberId, member.memberId), eq(chatConnections.projectCode, member.projectCode)))
    .get();
  if (!row || (await isBlockedBetween(env, member.memberId, row.target))) throw new AppError("notFound");
  const [profile] = [...(await profileSummaries(env, member.projectCode, [row.target], await viewerContext(env, member))).values()];
  if (!profile) throw new AppError("notFound");
  return { idConnection, memberNo: profile.simpleCode, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode) };
}

export async function deleteConnection(env: Env, member: ChatMember, idConnection: number) {
  const result = await getDb(env)
    .delete(chatConnections)
    .where(and(eq(chatConnections.idConnection, idConnection), eq(chatConnections.memberId, member.memberId)))
    .returning({ id: chatConnections.idConnection });
  if (!result.length) throw new AppError("notFound");
  return { idConnection, deleted: true };
}

// ── reminders (§3 Reminder; §9 shown only for today's UTC date) ─────────────────────────────

export async function createReminder(env: Env, member: ChatMember, input: { idChatroomMessage: number; title: string; description: string; remindAt: string }) {
  const stored = await loadStored(env, member.projectCode, input.idChatroomMessage, member);
  if (viewMessage(stored, await viewerContext(env, member)).placeholder) throw new AppError("notFound");
  const remindAt = Date.parse(input.remindAt);
  const row = await getDb(env)
    .insert(chatReminders)
    .values({ projectCode: member.projectCode, memberId: member.memberId, idChatroomMessage: input.idChatroomMessage, title: input.title, description: input.description, remindAt, createdAt: Date.now() })
    .returning()
    .get();
  return toReminder(row);
}

const toReminder = (r: typeof chatReminders.$inferSelect): Reminder => ({
  idReminder: r.idReminder,
  idChatroomMessage: r.idChatroomMessage,
  title: r.title,
  description: r.description,
  remindAt: iso(r.remindAt)!,
});

export async function todaysReminders(env: Env, member: ChatMember, at = Date.now()): Promise<Reminder[]> {
  const start = Date.parse(`${utcDate(at)}T00:00:00.000Z`);
  const rows = await getDb(env)
    .select()
    .from(chatReminders)
    .where(and(eq(chatReminders.memberId, member.memberId), sql`${chatReminders.remindAt} >= ${start}`, lt(chatReminders.remindAt, start + DAY)))
    .orderBy(chatReminders.remindAt)
    .limit(100);
  return rows.map(toReminder);
}

// ── web push sources (§7 notifications source update {sourceKey} and count for WEB_PUSH) ───

export async function updatePushSource(env: Env, member: ChatMember, sourceKey: string) {
  const at = Date.now();
  await getDb(env).run(sql`insert into chat_push_sources (member_id, source_key, project_code, source, last_count_at, updated_at)
    values (${member.memberId}, ${sourceKey}, ${member.projectCode}, 'WEB_PUSH', ${at}, ${at})
    on conflict (member_id, source_key) do update set updated_at = ${at}`);
  return { sourceKey, source: "WEB_PUSH" };
}

/** Unread notifications since the source last counted (all unread without a known source). */
export async function pushCount(env: Env, member: ChatMember, sourceKey?: string) {
  const db = getDb(env);
  const source = sourceKey
    ? await db.get<{ lastCountAt: number }>(sql`select last_count_at as lastCountAt from chat_push_sources where member_id = ${member.memberId} and source_key = ${sourceKey}`)
    : null;
  const since = source?.lastCountAt ?? 0;
  const row = await db.get<{ n: number }>(
    sql`select count(*) as n from ${notifications} where ${notifications.memberId} = ${member.memberId} and ${notifications.readAt} is null and ${notifications.createdAt} > ${since}`,
  );
  const unread = await unreadCounts(env, member);
  return { source: "WEB_PUSH", count: (row?.n ?? 0) + unread.total, notifications: row?.n ?? 0, messages: unread.total };
}

/** Newest notification id of a member (the orange dot compares against what the member has seen). */
export async function latestNotificationId(env: Env, memberId: string) {
  // A filtered sender's notice never lights the orange dot (sender-filter.ts).
  const row = await getDb(env).get<{ id: number | null }>(
    sql`select max(n.id_notification) as id from notifications n where n.member_id = ${memberId}
      and (n.actor_member_id is null or not ${filteredSender(memberId, sql`n.actor_member_id`, { typeColumn: sql`n.type` })})`,
  );
  return row?.id ?? 0;
}

/** A member's public key for encrypted private messages (§7), or null, and their end-to-end devices (e2e-devices.ts). */
export async function publicKeyOf(env: Env, member: ChatMember, memberNo: string): Promise<PublicKeysAnswer> {
  const target = await memberByNo(env, member.projectCode, memberNo);
  if (target.memberId !== member.memberId && (await isBlockedBetween(env, member.memberId, target.memberId))) throw new AppError("notFound");
  const [row, devices] = await Promise.all([
    getDb(env).select({ publicKey: profiles.publicKey }).from(profiles).where(eq(profiles.memberId, target.memberId)).get(),
    publicDevicesOf(env, { memberId: target.memberId, projectCode: member.projectCode }),
  ]);
  return { memberNo, publicKey: row?.publicKey ?? null, devices };
}

export { viewMessage, viewThread };
