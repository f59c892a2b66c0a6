// Stored chat messages: one message with its related records, who must not see a sender, edits, deletes, reactions (§5, §7).
import { and, between, eq } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { namedBatch, type NamedResults } from "../../db/named-batch";
import { inJson } from "../../db/in-list";
import { chatMessageRequests, chatMessages, chatReactions, chatReads, chatThreads, follows, profiles } from "../../db/schema";
import { privateMediaKeyFromUrl } from "../../contract/media";
import { EncryptedPayload, PERSONAL_CHATROOM, directChatroomId, type ChatReaction, type EncryptedPayloadT, type Payload } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { profileSummariesQuery, profileSummaryColumns, type SummaryRow } from "../members/profile-summary";
import { maskMessage, mutedPhrasesOf } from "../members/muted-words";
import { blockedWith, isBlockedBetween, isReportedBy, mutersOf, notBlockedWith, notMutedBy } from "../members/visibility";
import { assertRoomAccess, roomKind, toViewer, viewerContext, type ChatMember } from "./chat-access";
import { forgetChatImageStatement } from "./chat-media";
import { viewMessage, viewThread, type StoredMessage, type StoredThread } from "./chat-view";
import { refreshPhotoCommentCount } from "./photo-comment-counts";

const parsePayload = (raw: string): Payload | null => {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && "type" in value ? (value as Payload) : null;
  } catch {
    return null;
  }
};

export type MessageRow = typeof chatMessages.$inferSelect;

/**
 * Rows → StoredMessage with every related record (profiles, reactions, message requests, follows) in ONE
 * D1 batch, never one query per message. (A page of a room reads all of it in its own statement: listMessages.)
 */
export async function hydrateOnly(env: Env, projectCode: string, rows: MessageRow[]): Promise<StoredMessage[]> {
  if (rows.length === 0) return [];
  const db = getDb(env);
  const ids = rows.map((r) => r.idChatroomMessage);
  const memberIds = rows.flatMap((r) => [r.memberId, ...(r.toMemberId ? [r.toMemberId] : [])]);
  const recipients = [...new Set(rows.filter((r) => r.isPrivate && r.toMemberId).map((r) => r.toMemberId!))];
  // Held message requests and follows only matter for private messages (§7 message requests).
  const privately = recipients.length > 0;
  const read = await namedBatch(db, {
    summaries: profileSummariesQuery(env, projectCode, memberIds),
    // Reactions by the rows' id range (an index range, no id list to expand), filtered to the rows below.
    reactions: db
      .select({ id: chatReactions.idChatroomMessage, type: chatReactions.type, reactEmoji: chatReactions.reactEmoji, memberNo: profiles.simpleCode })
      .from(chatReactions)
      .innerJoin(profiles, eq(profiles.memberId, chatReactions.memberId))
      .where(between(chatReactions.idChatroomMessage, Math.min(...ids), Math.max(...ids))),
    requests: privately
      ? db
          .select({ memberId: chatMessageRequests.memberId, fromMemberId: chatMessageRequests.fromMemberId, status: chatMessageRequests.status })
          .from(chatMessageRequests)
          .where(inJson(chatMessageRequests.memberId, recipients))
      : undefined,
    follows: privately ? db.select({ memberId: follows.memberId, targetMemberId: follows.targetMemberId }).from(follows).where(inJson(follows.memberId, recipients)) : undefined,
  });

  const summaries = new Map(read.summaries.map((row) => [row.memberId, row]));
  const onPage = new Set(ids);
  const reactions = new Map<number, ChatReaction[]>();
  for (const r of read.reactions) {
    if (!onPage.has(r.id)) continue;
    reactions.set(r.id, [...(reactions.get(r.id) ?? []), { type: r.type, reactEmoji: r.reactEmoji, memberNo: r.memberNo }]);
  }
  const held = new Set<string>();
  const followed = new Set<string>();
  for (const r of read.requests ?? []) if (r.status !== "accepted") held.add(`${r.memberId}|${r.fromMemberId}`);
  for (const f of read.follows ?? []) followed.add(`${f.memberId}|${f.targetMemberId}`);
  return toStored(rows, summaries, reactions, held, followed);
}

export function toStored(
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

export function storedThread(row: typeof chatThreads.$inferSelect, profile: SummaryRow | null, noteAuthorId: string): StoredThread {
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

export const readKeyFor = (s: Pick<StoredMessage, "memberNo" | "toMemberNo" | "chatroomId">) =>
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
export async function loadStored(env: Env, projectCode: string, id: number, member: ChatMember | null): Promise<StoredMessage> {
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
export async function hiddenFromSender(env: Env, senderId: string): Promise<string[]> {
  const db = getDb(env);
  return hiddenFrom(await namedBatch(db, senderAudienceReads(db, senderId, Date.now())));
}

/** The reads behind `hiddenFromSender`, for a batch that needs them among others (a send). */
export const senderAudienceReads = (db: Db, senderId: string, at: number) => ({
  blockedWith: blockedWith(db, senderId, at).limit(5000),
  mutedBy: mutersOf(db, senderId, at).limit(5000),
});

export const hiddenFrom = (read: NamedResults<ReturnType<typeof senderAudienceReads>>) => [
  ...new Set([...read.blockedWith, ...read.mutedBy].map((r) => r.memberId)),
];
/** The file a message carries: an image's src, or an encrypted image's `media` (README Decisions "Everything private is encrypted"). */
export const imageSrcOf = (payload: Payload) =>
  payload.type === "img" || payload.type === "encodedImage" ? payload.src : payload.type === "encrypted" ? (payload.media ?? null) : null;
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
/** Tap-to-accept a stranger's image: only its recipient may. */
export async function acceptImage(env: Env, member: ChatMember, id: number) {
  const stored = await loadStored(env, member.projectCode, id, member);
  if (stored.toMemberId !== member.memberId) throw new AppError("notFound");
  await getDb(env).update(chatMessages).set({ imageAccepted: true }).where(eq(chatMessages.idChatroomMessage, id));
  return { idChatroomMessage: id, imageAccepted: true };
}
