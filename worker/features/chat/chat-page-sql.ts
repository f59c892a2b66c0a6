import { and, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { getDb, type Db } from "../../db/client";
import { isoSql } from "../../db/row-json";
import { chatMessages, profiles } from "../../db/schema";
import { PRIVATE_PLACEHOLDER } from "../../contract/chat";
import { jsonBool, summaryColumnsAs, summaryViewSqlFrom } from "../members/profile-summary";
import { notBlockedWith, notMutedBy, notReportedBy } from "../members/visibility";
import { keptIn } from "../../lib/kept";
import { strangerBlursSql } from "../members/stranger-media";
import { viewerCanSeeAvatarsSql } from "../members/avatar-rights";

/**
 * The chat page's SQL: SQLite writes each message as the ChatMessage `viewMessage` (chat-view.ts) makes for the
 * viewer, the §6 rules in SQL, so the route sends the page on without parsing it. A page is the most frequent read
 * there is, and parsing, mapping and serializing 100 messages in the worker cost more than the rest of the call
 * (API benchmark). tests/api/chat-page.test.ts keeps every page item equal to the message's detail.
 */

/** The viewer's page, with every rule in SQL: one statement, one round trip. */
export async function pageJson(env: Env, values: PageValues, shape: Omit<PageShape, "output">): Promise<string> {
  const [[row]] = await flatBatch(env, pageStatementsOf({ ...shape, output: "page" })(getDb(env), values));
  return row?.page ?? "[]";
}

// The page's author and recipient cards come from the same table twice.
const author = alias(profiles, "author");
const recipient = alias(profiles, "recipient");

export type PageValues = {
  projectCode: string; chatroomId: string; a: string; b: string; viewerId: string; viewerNo: string; at: number;
  memberNo: string; before: number; after: number; pageSize: number;
};
/**
 * `output` "page": the viewer's page as one JSON array (`page`). "party": only the messages the viewer sent or was
 * sent, one row each (`id`, `message`). "window": the room's newest rows without the viewer's visibility rules, one
 * row each, as any member who is neither sender nor recipient, may see avatars and is not in safe mode sees them
 * (with the cards also as visitors and safe-mode members see them), and, for the viewer's own messages, as the
 * viewer sees them (`party`): what kept pages are made of (chat-page-kept.ts).
 */
type PageShape = { direct: boolean; viewer: boolean; byMember: boolean; before: boolean; after: boolean; output: "page" | "party" | "window" };
/** The page's statement per shape, rendered once (`compiled`). */
const pageStatements = new Map<string, (db: Db, values: PageValues) => readonly unknown[]>();

/** The statements of a shape, made once per isolate. */
export function pageStatementsOf<S extends PageShape>(shape: S): (db: Db, values: PageValues) => PageQueries<S["output"]> {
  const key = `${+shape.direct}${+shape.viewer}${+shape.byMember}${+shape.before}${+shape.after}${shape.output}`;
  const statements = keptIn(pageStatements, key, () =>
    compiled<PageValues, Db, readonly unknown[] & PageQueries<S["output"]>>((db, v) => pageQueries(db, v, shape) as never),
  );
  return statements as (db: Db, values: PageValues) => PageQueries<S["output"]>;
}

type Limited = ReturnType<typeof limitedOf>;
type PageQueries<O extends PageShape["output"]> = readonly [ReturnType<(typeof selects)[O]>];
const selects = { page: pageSelect, party: partySelect, window: windowSelect };

function pageQueries(db: Db, v: PageValues, shape: PageShape) {
  const l = limitedOf(db, v, shape);
  return [selects[shape.output](db, l, rulesFor(l, v, shape))] as const;
}

/**
 * `limited` finds the page (index range, visibility) and reads what each row refers to once (the cards,
 * reactions, the recipient's request and follow); the outer select writes each row as the viewer's ChatMessage
 * from those columns, the §6 rules of `viewMessage` (chat-view.ts) in SQL.
 */
function limitedOf(db: Db, v: PageValues, shape: PageShape) {
  const m = chatMessages;
  const party = shape.output === "party";
  // The viewer's own messages are found through the sender and recipient indexes: the room's (`+` keeps SQLite
  // off it) would walk every message of the range.
  const conditions: SQL[] = [party ? sql`+${m.projectCode} = ${v.projectCode}` : eq(m.projectCode, v.projectCode), eq(m.deleted, false)];
  if (party) conditions.push(sql`(${m.memberId} = ${v.viewerId} or ${m.toMemberId} = ${v.viewerId})`);
  // Not blocked either way, not muted by the viewer (a window leaves these to its reader).
  if (shape.viewer && shape.output !== "window") {
    conditions.push(notBlockedWith(v.viewerId, m.memberId, v.at), notMutedBy(v.viewerId, m.memberId, v.at), notReportedBy(v.viewerId, "chat", m.idChatroomMessage));
  }
  if (shape.direct) {
    // A conversation: the pair's one-to-one room plus private messages between them in any room.
    conditions.push(
      sql`((${m.memberNo} = ${v.a} and ${m.toMemberNo} = ${v.b}) or (${m.memberNo} = ${v.b} and ${m.toMemberNo} = ${v.a}))`,
      sql`(${m.chatroomId} = ${v.chatroomId} or ${m.isPrivate} = 1)`,
    );
  } else {
    conditions.push(party ? sql`+${m.chatroomId} = ${v.chatroomId}` : eq(m.chatroomId, v.chatroomId));
  }
  if (shape.byMember) conditions.push(eq(m.memberNo, v.memberNo));
  if (shape.before) conditions.push(lt(m.idChatroomMessage, v.before));
  if (shape.after) conditions.push(gt(m.idChatroomMessage, v.after));

  const id = m.idChatroomMessage;
  const isRecipient = shape.viewer ? sql`coalesce(${m.toMemberId} = ${v.viewerId}, 0)` : sql`0`;
  const query = db
    .select({
      id,
      memberId: m.memberId,
      toMemberId: m.toMemberId,
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
      isRecipient: isRecipient.as("is_recipient"),
      // The viewer, as recipient, has not accepted this sender (message request pending or declined), or follows
      // them: only a recipient's view of a message depends on these, so other rows skip the lookups.
      held: (shape.viewer
        ? sql`${isRecipient} and coalesce((select q.status from chat_message_requests q where q.member_id = ${m.toMemberId} and q.from_member_id = ${m.memberId}) <> 'accepted', 0)`
        : sql`0`).as("held"),
      recipientFollows: (shape.viewer
        ? sql`${isRecipient} and exists (select 1 from follows f where f.member_id = ${m.toMemberId} and f.target_member_id = ${m.memberId})`
        : sql`0`).as("recipient_follows"),
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
  return (shape.after ? query.orderBy(id).limit(v.pageSize) : query.orderBy(desc(id)).limit(v.pageSize)).as("limited");
}

/**
 * How a row is seen: by whom (sender, recipient), whether they wait on a request, whose cards lose their avatar
 * (`hide`) and whose show only their blurred rendition (`shroud`; `avatarOf` in profile-summary.ts).
 */
type Rules = { isSender: SQL; isRecipient: SQL; held: SQL; recipientFollows: SQL; lastRead: SQL; hide: (prefix: string) => SQL; shroud: (prefix: string) => SQL };

function rulesFor(l: Limited, v: PageValues, shape: PageShape): { viewer: Rules; anyone: Rules; shrouded: Rules } {
  // §6: a viewer without a qualifying avatar sees other members' cards without avatars (their own card stays).
  const canSee = viewerCanSeeAvatarsSql(v.viewerId);
  // A safe-mode viewer (and a visitor) gets other members' renditions only; so does anyone for a `blur` member.
  const safeMode = sql`coalesce((select vp.safe_mode from profiles vp where vp.member_id = ${v.viewerId}), 0)`;
  const column = (prefix: string, name: string) => sql.raw(`"limited"."${prefix}${name}"`);
  const notMine = (prefix: string) => sql`${column(prefix, "simple_code")} <> ${v.viewerNo}`;
  const viewer: Rules = {
    isSender: sql`${l.isSender}`,
    isRecipient: sql`${l.isRecipient}`,
    held: sql`${l.held}`,
    recipientFollows: sql`${l.recipientFollows}`,
    lastRead: sql`${l.lastRead}`,
    hide: (prefix) => (shape.viewer ? sql`(not ${canSee} and ${notMine(prefix)})` : sql`0`),
    // …and so does a viewer whose stranger-media setting covers the card's member (stranger-media.ts).
    shroud: (prefix) =>
      shape.viewer ? sql`((${safeMode} or ${column(prefix, "blur")} or ${strangerBlursSql(v.viewerId, column(prefix, "member_id"))}) and ${notMine(prefix)})` : sql`1`,
  };
  // Neither sender nor recipient, avatars visible, not in safe mode.
  const anyone: Rules = {
    isSender: sql`0`, isRecipient: sql`0`, held: sql`0`, recipientFollows: sql`0`, lastRead: sql`null`,
    hide: () => sql`0`, shroud: (prefix) => column(prefix, "blur"),
  };
  // The same, as a visitor or a safe-mode member sees it: every card's rendition.
  const shrouded: Rules = { ...anyone, shroud: () => sql`1` };
  return { viewer, anyone, shrouded };
}

/** The ChatMessage's fields but the two cards, as `json_object` arguments; the cards come last (`messageJson`). */
function fieldsOf(l: Limited, r: Rules): SQL {
  const party = sql`(${r.isSender} or (${r.isRecipient} and not ${r.held}))`;
  const placeholder = sql`(${l.isPrivate} and not ${party})`;
  // A §3 payload is an object with a `type`; anything else stored there reads as none.
  const payload = sql`(case when json_valid(${l.payload}) and json_type(${l.payload}) = 'object' and json_type(${l.payload}, '$.type') is not null then json(${l.payload}) end)`;
  // An encrypted image (`media`) counts as an image too, as in viewMessage (README Decisions "Everything private is encrypted").
  const image = sql`coalesce(json_extract(${payload}, '$.type') in ('img', 'encodedImage') or (json_extract(${payload}, '$.type') = 'encrypted' and json_extract(${payload}, '$.media') is not null), 0)`;
  return sql`'idChatroomMessage', ${l.id}, 'idMessage', ${l.id},
    'requestId', case when ${r.isSender} then ${l.requestId} else '' end,
    'chatroomId', ${l.chatroomId},
    'message', case when ${placeholder} then ${PRIVATE_PLACEHOLDER} when ${l.deleted} then '' else ${l.message} end,
    'payload', json(case when ${placeholder} or ${l.deleted} then null else ${payload} end),
    'replyPayload', json(case when ${placeholder} then '[]' else ${l.reactions} end),
    'isPrivate', ${jsonBool(sql`${l.isPrivate}`)},
    'placeholder', ${jsonBool(placeholder)},
    'blurred', ${jsonBool(sql`not ${placeholder} and ${r.isRecipient} and ${l.isPrivate} and not ${l.imageAccepted} and not ${r.recipientFollows} and ${image}`)},
    'toMemberNo', ${l.toMemberNo},
    'memberNo', ${l.memberNo},
    'nickname', ${l.nickname},
    'dateAdd', ${sql.raw(isoSql(`"limited"."${chatMessages.dateAdd.name}"`))},
    'dateUdp', ${sql.raw(isoSql(`"limited"."${chatMessages.dateUdp.name}"`))},
    'read', ${jsonBool(sql`not ${r.isRecipient} or ${l.id} <= ${r.lastRead}`)},
    'deleted', ${jsonBool(sql`${l.deleted}`)},
    'blocked', ${jsonBool(sql`${l.blocked}`)},
    'threadCount', ${l.threadCount}`;
}

const cardOf = (r: Rules, who: "recipient" | "author") => summaryViewSqlFrom("limited", `${who}_`, r.hide(`${who}_`), r.shroud(`${who}_`));
const messageJson = (l: Limited, r: Rules) =>
  sql`json_object(${fieldsOf(l, r)}, 'toProfile', ${cardOf(r, "recipient")}, 'profile', ${cardOf(r, "author")})`;

/** The page as one JSON array, oldest first. */
function pageSelect(db: Db, l: Limited, rules: { viewer: Rules }) {
  return db.select({ page: sql<string>`json_group_array(${messageJson(l, rules.viewer)} order by ${l.id})`.as("page") }).from(l);
}

/** The viewer's own messages, one row each, oldest first. */
function partySelect(db: Db, l: Limited, rules: { viewer: Rules }) {
  return db.select({ id: l.id, message: sql<string>`${messageJson(l, rules.viewer)}`.as("message") }).from(l).orderBy(l.id);
}

/**
 * A window's rows, newest first: the message as anyone sees it, in three JSON texts (`fields` without its closing
 * brace, then the recipient's and the author's cards) so a reader can hide the cards' avatars without parsing the
 * rest; both cards again as a visitor or a safe-mode member sees them (renditions); and as the viewer sees it where
 * the viewer sent it or was sent it.
 */
function windowSelect(db: Db, l: Limited, rules: { viewer: Rules; anyone: Rules; shrouded: Rules }) {
  return db
    .select({
      id: l.id,
      memberId: l.memberId,
      toMemberId: l.toMemberId,
      fields: sql<string>`json_object(${fieldsOf(l, rules.anyone)})`.as("fields"),
      toCard: sql<string | null>`${cardOf(rules.anyone, "recipient")}`.as("to_card"),
      card: sql<string | null>`${cardOf(rules.anyone, "author")}`.as("card"),
      toCardShrouded: sql<string | null>`${cardOf(rules.shrouded, "recipient")}`.as("to_card_shrouded"),
      cardShrouded: sql<string | null>`${cardOf(rules.shrouded, "author")}`.as("card_shrouded"),
      party: sql<string | null>`case when ${l.isSender} or ${l.isRecipient} then ${messageJson(l, rules.viewer)} end`.as("party"),
    })
    .from(l)
    .orderBy(desc(l.id));
}
