import { and, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { getDb, type Db } from "../../db/client";
import { isoSql } from "../../db/row-json";
import { chatMessages, profiles } from "../../db/schema";
import { PRIVATE_PLACEHOLDER, type ChatMessage } from "../../contract/chat";
import { jsonBool, summaryColumnsAs, summaryViewSqlFrom } from "../profiles/profile-summary";
import { notBlockedWith, notMutedBy } from "../social/visibility";
import { assertRoomAccess, roomKind, type ChatMember } from "./chat.service";

type PageOptions = { pageSize: number; memberNo?: string; before?: number; after?: number };

/**
 * §7 GET /sns/chatroom/{id}/messages as JSON text: the newest `pageSize` messages the member may see (optionally
 * before an id, after one for a reconnect replay, or only one member's), oldest first, each the ChatMessage
 * `viewMessage` makes for this viewer. SQLite writes the whole page (`pageQueries`) and the route sends it on
 * without parsing: a page is the most frequent read there is, and parsing, mapping and serializing 100 messages
 * in the worker cost more than the rest of the call (API benchmark). One statement, one round trip.
 */
export async function listMessagesJson(env: Env, projectCode: string, chatroomId: string, member: ChatMember | null, options: PageOptions): Promise<string> {
  const room = roomKind(chatroomId);
  assertRoomAccess(room, member);
  const shape: PageShape = {
    direct: room.kind === "direct",
    viewer: Boolean(member),
    byMember: Boolean(options.memberNo),
    before: Boolean(options.before),
    after: options.after !== undefined,
  };
  const key = `${+shape.direct}${+shape.viewer}${+shape.byMember}${+shape.before}${+shape.after}`;
  let statements = pageStatements.get(key);
  if (!statements) pageStatements.set(key, (statements = compiled<PageValues, Db, PageQueries>((db, v) => pageQueries(db, v, shape))));
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
  const [[row]] = await flatBatch(env, statements(getDb(env), values));
  return row?.page ?? "[]";
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

// The page's author and recipient cards come from the same table twice.
const author = alias(profiles, "author");
const recipient = alias(profiles, "recipient");

type PageValues = {
  projectCode: string; chatroomId: string; a: string; b: string; viewerId: string; viewerNo: string; at: number;
  memberNo: string; before: number; after: number; pageSize: number;
};
type PageShape = { direct: boolean; viewer: boolean; byMember: boolean; before: boolean; after: boolean };
type PageQueries = ReturnType<typeof pageQueries>;
/** The page's statement per shape, rendered once (`compiled`). */
const pageStatements = new Map<string, (db: Db, values: PageValues) => PageQueries>();

/**
 * Two levels: `limited` finds the page (index range, visibility) and reads what each row refers to once (the
 * cards, reactions, the recipient's request and follow); the outer select writes each row as the viewer's
 * ChatMessage from those columns, the §6 rules of `viewMessage` (chat-view.ts) in SQL, and aggregates the page.
 */
function pageQueries(db: Db, v: PageValues, shape: PageShape) {
  const m = chatMessages;
  const conditions: SQL[] = [eq(m.projectCode, v.projectCode), eq(m.deleted, false)];
  // Not blocked either way, not muted by the viewer.
  if (shape.viewer) conditions.push(notBlockedWith(v.viewerId, m.memberId, v.at), notMutedBy(v.viewerId, m.memberId, v.at));
  if (shape.direct) {
    // A conversation: the pair's one-to-one room plus private messages between them in any room.
    conditions.push(
      sql`((${m.memberNo} = ${v.a} and ${m.toMemberNo} = ${v.b}) or (${m.memberNo} = ${v.b} and ${m.toMemberNo} = ${v.a}))`,
      sql`(${m.chatroomId} = ${v.chatroomId} or ${m.isPrivate} = 1)`,
    );
  } else {
    conditions.push(eq(m.chatroomId, v.chatroomId));
  }
  if (shape.byMember) conditions.push(eq(m.memberNo, v.memberNo));
  if (shape.before) conditions.push(lt(m.idChatroomMessage, v.before));
  if (shape.after) conditions.push(gt(m.idChatroomMessage, v.after));

  const id = m.idChatroomMessage;
  const query = db
    .select({
      id,
      requestId: m.requestId,
      chatroomId: m.chatroomId,
      memberNo: m.memberNo,
      message: m.message,
      payload: m.payload,
      isPrivate: m.isPrivate,
      toMemberNo: m.toMemberNo,
      imageAccepted: m.imageAccepted,
      threadCount: m.threadCount,
      deleted: m.deleted,
      dateAdd: m.dateAdd,
      dateUdp: m.dateUdp,
      isSender: (shape.viewer ? sql`${m.memberId} = ${v.viewerId}` : sql`0`).as("is_sender"),
      isRecipient: (shape.viewer ? sql`coalesce(${m.toMemberId} = ${v.viewerId}, 0)` : sql`0`).as("is_recipient"),
      // The recipient has not accepted this sender (message request pending or declined).
      held: sql`coalesce((select q.status from chat_message_requests q where q.member_id = ${m.toMemberId} and q.from_member_id = ${m.memberId}) <> 'accepted', 0)`.as("held"),
      recipientFollows: sql`exists (select 1 from follows f where f.member_id = ${m.toMemberId} and f.target_member_id = ${m.memberId})`.as("recipient_follows"),
      ...summaryColumnsAs(author, "author_"),
      ...summaryColumnsAs(recipient, "recipient_"),
      nickname: sql`coalesce(${author.nickname}, '')`.as("nickname"),
      blocked: sql`coalesce(${author.blocked}, 0)`.as("author_blocked"),
      reactions: sql`(select json_group_array(json_object('type', r.type, 'reactEmoji', r.react_emoji, 'memberNo', rp.simple_code))
        from chat_reactions r join profiles rp on rp.member_id = r.member_id where r.id_chatroom_message = ${id})`.as("reactions"),
      // Inbox messages are read per pair (`readKeyFor`): the recipient's position in the pair's one-to-one room
      // (directChatroomId: the two numbers in text order), wherever the message was posted.
      lastRead: (shape.viewer
        ? sql`case when ${m.toMemberId} = ${v.viewerId} then coalesce((select cr.last_read_id from chat_reads cr where cr.member_id = ${v.viewerId}
            and cr.chatroom_id = 'dm-' || min(${m.memberNo}, ${m.toMemberNo}) || '-' || max(${m.memberNo}, ${m.toMemberNo})), 0) end`
        : sql`null`).as("last_read"),
    })
    .from(m)
    .leftJoin(author, eq(author.memberId, m.memberId))
    .leftJoin(recipient, eq(recipient.memberId, m.toMemberId))
    .where(and(...conditions));
  const l = (shape.after ? query.orderBy(id).limit(v.pageSize) : query.orderBy(desc(id)).limit(v.pageSize)).as("limited");

  // §6: a viewer without a qualifying avatar sees other members' cards without avatars (their own card stays).
  const canSee = sql`coalesce((select vp.avator <> '' and vp.qualify from profiles vp where vp.member_id = ${v.viewerId}), 0)`;
  const card = (prefix: string) => {
    const hide = shape.viewer ? sql`(not ${canSee} and ${sql.raw(`"limited"."${prefix}simple_code"`)} <> ${v.viewerNo})` : sql`0`;
    return summaryViewSqlFrom("limited", prefix, hide);
  };
  const party = sql`(${l.isSender} or (${l.isRecipient} and not ${l.held}))`;
  const placeholder = sql`(${l.isPrivate} and not ${party})`;
  // A §3 payload is an object with a `type`; anything else stored there reads as none.
  const payload = sql`(case when json_valid(${l.payload}) and json_type(${l.payload}) = 'object' and json_type(${l.payload}, '$.type') is not null then json(${l.payload}) end)`;
  const image = sql`coalesce(json_extract(${payload}, '$.type') in ('img', 'encodedImage'), 0)`;
  const message = sql`json_object(
    'idChatroomMessage', ${l.id}, 'idMessage', ${l.id},
    'requestId', case when ${l.isSender} then ${l.requestId} else '' end,
    'chatroomId', ${l.chatroomId},
    'message', case when ${placeholder} then ${PRIVATE_PLACEHOLDER} when ${l.deleted} then '' else ${l.message} end,
    'payload', json(case when ${placeholder} or ${l.deleted} then null else ${payload} end),
    'replyPayload', json(case when ${placeholder} then '[]' else ${l.reactions} end),
    'isPrivate', ${jsonBool(sql`${l.isPrivate}`)},
    'placeholder', ${jsonBool(placeholder)},
    'blurred', ${jsonBool(sql`not ${placeholder} and ${l.isRecipient} and ${l.isPrivate} and not ${l.imageAccepted} and not ${l.recipientFollows} and ${image}`)},
    'toMemberNo', ${l.toMemberNo},
    'toProfile', ${card("recipient_")},
    'profile', ${card("author_")},
    'memberNo', ${l.memberNo},
    'nickname', ${l.nickname},
    'dateAdd', ${sql.raw(isoSql(`"limited"."${m.dateAdd.name}"`))},
    'dateUdp', ${sql.raw(isoSql(`"limited"."${m.dateUdp.name}"`))},
    'read', ${jsonBool(sql`not ${l.isRecipient} or ${l.id} <= ${l.lastRead}`)},
    'deleted', ${jsonBool(sql`${l.deleted}`)},
    'blocked', ${jsonBool(sql`${l.blocked}`)},
    'threadCount', ${l.threadCount})`;
  return [db.select({ page: sql<string>`json_group_array(${message} order by ${l.id})`.as("page") }).from(l)] as const;
}
