import { and, eq, sql } from "drizzle-orm";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { getDb, type Db } from "../../db/client";
import { chatRoomVersions, profiles } from "../../db/schema";
import { hiddenFromSql } from "../social/visibility";
import { pageJson, pageStatementsOf, type PageValues } from "./chat-page-sql";

/**
 * The newest page of a shared room, kept per isolate. Every member who opens a room reads the same newest
 * messages; only a few things differ per reader (§5, §6): messages of members with a live block either way or muted
 * by the reader drop out; the reader's own messages, sent or received, show as the reader sees them (private text,
 * request id, read, blurred); a reader without a qualifying avatar sees other members' cards without avatars.
 *
 * So the room's newest `pageSize + SPARE` messages are kept as anyone sees them, with the room's version (migration
 * 0010: triggers bump it on every message, edit, delete, thread and reaction). Each call reads, in one round trip,
 * the version, the reader's hidden members and avatar right, and the reader's own messages in the kept range
 * written by the page SQL, and puts the page together from the kept rows. A changed version or a kept window older
 * than CHAT_PAGE_TTL_SECONDS reads the window again (with the reader's own messages in the same statement), so the
 * messages are always current and other members' cards (nickname, avatar, last access) at most that old.
 * A reader with SPARE or more hidden members, or whose hidden members took more than the spare rows, gets the page
 * read with every rule in SQL. Measured (tests/bench): the page SQL was ~2 ms of the call's workerd time.
 */

/** Messages a kept window holds beyond the page, for the readers' hidden members to drop out of. */
export const SPARE = 10;
const DEFAULT_TTL_SECONDS = 10;
/** Windows kept per isolate (room and page size); the oldest read goes first. */
const MAX_KEPT = 64;

type KeptRow = { id: number; memberId: string; toMemberId: string | null; shown: string; fields: string; toCard: string | null; card: string | null; hidden?: string };
type Kept = { version: number; readAt: number; rows: KeptRow[]; full: boolean };
const keptWindows = new Map<string, Kept>();

/** Seconds an isolate keeps a room's newest page (0: read on every call, as the API tests do). */
export function chatPageTtlMs(env: Env): number {
  const seconds = Number(env.CHAT_PAGE_TTL_SECONDS ?? DEFAULT_TTL_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

type Reader = { version: number; hidden: string; canSee: number | null };

/** The room's version and, for a member, who is hidden from them and whether they see avatars (§6). */
const readerStatement = compiled<PageValues, Db, readonly [ReturnType<typeof readerSelect>]>((db, v) => [readerSelect(db, v)]);
function readerSelect(db: Db, v: PageValues) {
  return db
    .select({
      version: sql<number>`coalesce((select ${chatRoomVersions.version} from ${chatRoomVersions}
        where ${and(eq(chatRoomVersions.projectCode, v.projectCode), eq(chatRoomVersions.chatroomId, v.chatroomId))}), 0)`.as("version"),
      hidden: sql<string>`${hiddenFromSql(v.viewerId, v.at, SPARE)}`.as("hidden"),
      canSee: sql<number | null>`(select ${profiles.avator} <> '' and ${profiles.qualify} from ${profiles} where ${profiles.memberId} = ${v.viewerId})`.as("can_see"),
    })
    .from(sql`(select 1)`);
}

const pageShape = (viewer: boolean) => ({ direct: false, viewer, byMember: false, before: false, after: false }) as const;
const windowShape = (viewer: boolean) => ({ ...pageShape(viewer), output: "window" }) as const;
const partyShape = { direct: false, viewer: true, byMember: false, before: false, after: true, output: "party" } as const;

/** §7 the newest page of a shared room as `viewer` sees it (a member, or a visitor when false), from the kept window. */
export async function keptPageJson(env: Env, values: PageValues, viewer: boolean): Promise<string> {
  const db = getDb(env);
  const key = `${values.projectCode}\n${values.chatroomId}\n${values.pageSize}`;
  const now = Date.now();
  const kept = keptWindows.get(key);
  if (kept && now - kept.readAt < chatPageTtlMs(env)) {
    // The reader's own messages (sent or received) in the kept rows are read as they see them; most readers have none.
    const mine = viewer ? kept.rows.filter((row) => row.memberId === values.viewerId || row.toMemberId === values.viewerId) : [];
    const [[reader], party] = mine.length
      ? await flatBatch(env, [...readerStatement(db, values), ...pageStatementsOf(partyShape)(db, { ...values, after: mine.at(-1)!.id - 1, pageSize: mine.length })] as const)
      : [...(await flatBatch(env, readerStatement(db, values))), [{ page: "[]" }]];
    if (reader && reader.version === kept.version) {
      const own = new Map((JSON.parse(party[0]?.page ?? "[]") as { idChatroomMessage: number }[]).map((m) => [m.idChatroomMessage, JSON.stringify(m)]));
      return pageOf(kept, values.pageSize, reader, viewer, own) ?? pageJson(env, values, pageShape(viewer));
    }
  }
  const [rows, [reader]] = await flatBatch(env, [...pageStatementsOf(windowShape(viewer))(db, { ...values, pageSize: values.pageSize + SPARE }), ...readerStatement(db, values)] as const);
  const fresh = keep(key, { version: reader?.version ?? 0, readAt: now, full: rows.length === values.pageSize + SPARE, rows: rows.map(keptRow) });
  const own = new Map(rows.flatMap((row) => (row.party === null ? [] : [[row.id, row.party] as const])));
  return pageOf(fresh, values.pageSize, reader, viewer, own) ?? pageJson(env, values, pageShape(viewer));
}

function keep(key: string, kept: Kept): Kept {
  keptWindows.delete(key);
  keptWindows.set(key, kept);
  if (keptWindows.size > MAX_KEPT) keptWindows.delete(keptWindows.keys().next().value!);
  return kept;
}

function keptRow(row: { id: number; memberId: string; toMemberId: string | null; fields: string; toCard: string | null; card: string | null }): KeptRow {
  const shown = `${row.fields.slice(0, -1)},"toProfile":${row.toCard ?? "null"},"profile":${row.card ?? "null"}}`;
  return { id: row.id, memberId: row.memberId, toMemberId: row.toMemberId, shown, fields: row.fields, toCard: row.toCard, card: row.card };
}

/**
 * The page as the reader sees it, oldest first, or null when the kept rows cannot tell: the reader has SPARE or
 * more hidden members (the list is cut there), or they took more messages than the spare rows.
 */
function pageOf(kept: Kept, pageSize: number, reader: Reader | undefined, viewer: boolean, own: ReadonlyMap<number, string>): string | null {
  const hidden = new Set<string>(viewer && reader ? (JSON.parse(reader.hidden) as string[]) : []);
  if (!reader || hidden.size >= SPARE) return null;
  // A member without a profile row sees no avatars (the page SQL's `coalesce(…, 0)`); a visitor sees them.
  const canSee = !viewer || Boolean(reader.canSee);
  const page: string[] = [];
  for (const row of kept.rows) {
    if (page.length === pageSize) break;
    if (hidden.has(row.memberId)) continue;
    page.push(own.get(row.id) ?? (canSee ? row.shown : withoutAvatars(row)));
  }
  if (page.length < pageSize && kept.full) return null;
  return `[${page.reverse().join(",")}]`;
}

/** §6: the row's cards without avatars and blurred, as a reader without a qualifying avatar sees them. */
function withoutAvatars(row: KeptRow): string {
  const hide = (card: string | null) => (card === null ? "null" : JSON.stringify({ ...JSON.parse(card), avator: "", blur: true }));
  return (row.hidden ??= `${row.fields.slice(0, -1)},"toProfile":${hide(row.toCard)},"profile":${hide(row.card)}}`);
}
