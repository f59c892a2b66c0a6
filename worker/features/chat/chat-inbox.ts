// What is unread and who a member talks with: read marks, unread counts, the orange dot, the chat list (§7, §9).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatConnections, chatMessages, chatReads } from "../../db/schema";
import { directChatroomId, type ChatListEntry, type UnreadCounts } from "../../contract/chat";
import { filteredSender } from "../notifications/sender-filter";
import { profileSummaries } from "../members/profile-summary";
import { maskMessage, mutedPhrasesOf } from "../members/muted-words";
import { notBlockedWith } from "../members/visibility";
import { assertRoomAccess, roomKind, viewerContext, type ChatMember } from "./chat-access";
import { viewMessage } from "./chat-view";
import { hydrateOnly } from "./chat-messages";
import { waitingOn } from "./conversation-starts";

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
      and ${notBlockedWith(member.memberId, sql`m.member_id`, at)}
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
      and ${notBlockedWith(member.memberId, sql`t.other`, at)}
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

/** Newest notification id of a member (the orange dot compares against what the member has seen). */
export async function latestNotificationId(env: Env, memberId: string) {
  // A filtered sender's notice never lights the orange dot (sender-filter.ts).
  const row = await getDb(env).get<{ id: number | null }>(
    sql`select max(n.id_notification) as id from notifications n where n.member_id = ${memberId}
      and (n.actor_member_id is null or not ${filteredSender(memberId, sql`n.actor_member_id`, { typeColumn: sql`n.type` })})`,
  );
  return row?.id ?? 0;
}
