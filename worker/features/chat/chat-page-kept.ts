import { and, eq, sql } from "drizzle-orm";
import { compiled } from "../../db/compiled";
import { flatBatch } from "../../db/flat-batch";
import { getDb, type Db } from "../../db/client";
import { chatCardVersions, chatRoomVersions, profiles } from "../../db/schema";
import { maskPageJson, mutedPhrasesSql } from "../members/muted-words";
import { hiddenFromSql, reportedChatSql } from "../members/visibility";
import { pageJson, pageStatementsOf, type PageValues } from "./chat-page-sql";
import { IsolateCache, ttlMsFromEnv } from "../../lib/isolate-cache";
import { canSeeAvatarsSql } from "../members/avatar-rights";

/**
 * The newest page of a shared room, kept per isolate. Every member who opens a room reads the same newest
 * messages; only a few things differ per reader (§5, §6): messages of members with a live block either way or muted
 * by the reader drop out; the reader's own messages, sent or received, show as the reader sees them (private text,
 * request id, read, blurred); a reader without a qualifying avatar sees other members' cards without avatars; a
 * visitor or a safe-mode reader sees only their blurred renditions (README Decisions on renditions).
 *
 * So the room's newest `pageSize + SPARE` messages are kept as anyone sees them, with two versions (migration 0010,
 * bumped by triggers): the room's, on every message, edit, delete, thread and reaction, and the project's member
 * cards', on every change to what a card shows but last access. Each call reads, in one round trip, both versions,
 * the reader's hidden members, avatar right and safe mode, and the reader's own messages among the kept rows, and puts the page
 * together from the kept rows. A changed version or a kept window older than CHAT_PAGE_TTL_SECONDS reads the window
 * again (with the reader's own messages in the same statement). So messages and cards are always current, and the
 * last access on other members' cards is at most that old; the reader's own rows are read on each call, so their
 * cards may show a newer last access than the kept rows' for the same member.
 * A reader with HIDDEN_LIMIT or more hidden members (or reported messages), or whose hidden members took more than the spare rows, gets the
 * page read with every rule in SQL. Measured (tests/bench): the page SQL was ~2 ms of the call's workerd time.
 */

/** Messages a kept window holds beyond the page, for the readers' hidden members to drop out of. */
export const SPARE = 10;
/** Hidden members a reader may have and still get their page from a kept window (more: read with every rule). */
export const HIDDEN_LIMIT = 100;
const DEFAULT_TTL_SECONDS = 10;
/**
 * What an isolate keeps, in rooms and in characters of kept text (three forms of every row: with avatars, without,
 * and with renditions, though the last two are written only for a reader who needs them): the least recently read
 * room goes first.
 * Measured: ~860 characters a message with one card, so a window for a page of 500 counts ~0.9 M.
 */
export const MAX_KEPT_ROOMS = 64;
const MAX_KEPT_CHARS = 12_000_000;

type KeptRow = {
  id: number;
  memberId: string;
  toMemberId: string | null;
  /** The ChatMessage as anyone sees it (neither sender nor recipient, avatars visible). */
  shown: string;
  /** Where `shown`'s cards start, `…,"toProfile":{…},"profile":{…}}`: the recipient's and the author's. */
  toCardAt: number;
  cardAt: number;
  /** The same as a reader without a qualifying avatar sees it, written for the first such reader. */
  shownWithoutAvatars?: string;
  /** The cards as a visitor or a safe-mode reader sees them (renditions), and the row with them once written. */
  toCardShrouded: string;
  cardShrouded: string;
  shownShrouded?: string;
};
type Versions = { version: number; cardVersion: number };
type Kept = Versions & { readAt: number; rows: KeptRow[]; full: boolean; chars: number };
const keptWindows = new IsolateCache<string, Kept>({ maxEntries: MAX_KEPT_ROOMS, maxWeight: MAX_KEPT_CHARS, weigh: (kept) => kept.chars });

/** What this isolate keeps (tests). */
export const keptSizes = () => ({ rooms: keptWindows.size, chars: keptWindows.weight });

/** How long an isolate keeps a room's newest page, in ms (CHAT_PAGE_TTL_SECONDS; 0: read on every call, as the API tests do). */
export function chatPageTtlMs(env: Env): number {
  return ttlMsFromEnv(env.CHAT_PAGE_TTL_SECONDS, DEFAULT_TTL_SECONDS);
}

type Reader = Versions & { hidden: string; reported: string; canSee: number | null; safeMode: number | null; strangerMedia: string | null; mutedWords: string };

/**
 * The room's and the cards' versions and, for a member, who is hidden from them, whether they see avatars (§6) and
 * whether they are in safe mode (renditions only).
 */
const readerStatement = compiled<PageValues, Db, readonly [ReturnType<typeof readerSelect>]>((db, v) => [readerSelect(db, v)]);
function readerSelect(db: Db, v: PageValues) {
  const r = chatRoomVersions;
  const c = chatCardVersions;
  return db
    .select({
      version: sql<number>`coalesce((select ${r.version} from ${r} where ${and(eq(r.projectCode, v.projectCode), eq(r.chatroomId, v.chatroomId))}), 0)`.as("version"),
      cardVersion: sql<number>`coalesce((select ${c.version} from ${c} where ${eq(c.projectCode, v.projectCode)}), 0)`.as("card_version"),
      hidden: sql<string>`${hiddenFromSql(v.viewerId, v.at, HIDDEN_LIMIT)}`.as("hidden"),
      // Messages the reader reported (migration 0032): the kept rows are shared, so they drop out here, per reader.
      reported: sql<string>`${reportedChatSql(v.viewerId, HIDDEN_LIMIT)}`.as("reported"),
      canSee: sql<number | null>`(select ${canSeeAvatarsSql(profiles.avator, profiles.qualify)} from ${profiles} where ${profiles.memberId} = ${v.viewerId})`.as("can_see"),
      safeMode: sql<number | null>`(select ${profiles.safeMode} from ${profiles} where ${profiles.memberId} = ${v.viewerId})`.as("safe_mode"),
      strangerMedia: sql<string | null>`(select ${profiles.strangerMedia} from ${profiles} where ${profiles.memberId} = ${v.viewerId})`.as("stranger_media"),
      // The reader's muted words, applied to the page after it is put together (kept rows are shared by all readers).
      mutedWords: sql<string>`${mutedPhrasesSql(v.viewerId, v.at)}`.as("muted_words"),
    })
    .from(sql`(select 1)`);
}

const pageShape = (viewer: boolean) => ({ direct: false, viewer, byMember: false, before: false, after: false }) as const;
const windowShape = (viewer: boolean) => ({ ...pageShape(viewer), output: "window" }) as const;
const partyShape = { direct: false, viewer: true, byMember: false, before: false, after: true, output: "party" } as const;

/** §7 the newest page of a shared room as `viewer` sees it (a member, or a visitor when false), from the kept window. */
export async function keptPageJson(env: Env, values: PageValues, viewer: boolean): Promise<string> {
  const db = getDb(env);
  const key = `${values.projectCode}\n${values.chatroomId}`;
  const now = Date.now();
  const kept = keptWindows.get(key, now, chatPageTtlMs(env));
  if (kept && (!kept.full || kept.rows.length >= values.pageSize + SPARE)) {
    // The reader's own messages (sent or received) among the rows their page may take are read as they see them;
    // most readers have none.
    const mine = viewer ? kept.rows.slice(0, values.pageSize + SPARE).filter((row) => row.memberId === values.viewerId || row.toMemberId === values.viewerId) : [];
    const [reader, own] = await readerWithOwn(env, db, values, mine);
    if (reader && reader.version === kept.version && reader.cardVersion === kept.cardVersion) {
      keep(key, kept);
      return masked(pageOf(kept, values.pageSize, reader, viewer, own) ?? (await pageJson(env, values, pageShape(viewer))), values, reader, viewer);
    }
  }
  const size = values.pageSize + SPARE;
  const [rows, [reader]] = await flatBatch(env, [...pageStatementsOf(windowShape(viewer))(db, { ...values, pageSize: size }), ...readerStatement(db, values)] as const);
  const fresh = windowOf(rows, reader, now, rows.length === size);
  // An empty room costs no more to read than to check; keeping it would only push out rooms with messages.
  if (rows.length) keep(key, fresh);
  const own = new Map(rows.flatMap((row) => (row.party === null ? [] : [[row.id, row.party] as const])));
  return masked(pageOf(fresh, values.pageSize, reader, viewer, own) ?? (await pageJson(env, values, pageShape(viewer))), values, reader, viewer);
}

/** The page with the reader's muted words applied (README Decisions "Muted words"): per reader, after the kept rows. */
function masked(page: string, values: PageValues, reader: Reader | undefined, viewer: boolean): string {
  if (!viewer || !reader?.mutedWords) return page;
  return maskPageJson(page, values.viewerNo, JSON.parse(reader.mutedWords) as string[]);
}

/** The reader and, in the same round trip when they have any, their own messages among `mine` as they see them. */
async function readerWithOwn(env: Env, db: Db, values: PageValues, mine: KeptRow[]): Promise<[Reader | undefined, ReadonlyMap<number, string>]> {
  if (!mine.length) {
    const [[reader]] = await flatBatch(env, readerStatement(db, values));
    return [reader, new Map()];
  }
  const range = { ...values, after: mine.at(-1)!.id - 1, pageSize: mine.length };
  const [[reader], party] = await flatBatch(env, [...readerStatement(db, values), ...pageStatementsOf(partyShape)(db, range)] as const);
  return [reader, new Map(party.map((row) => [row.id, row.message]))];
}

type WindowRow = {
  id: number; memberId: string; toMemberId: string | null; fields: string; toCard: string | null; card: string | null;
  toCardShrouded: string | null; cardShrouded: string | null;
};

function windowOf(rows: WindowRow[], reader: Reader | undefined, readAt: number, full: boolean): Kept {
  const kept = rows.map(keptRow);
  const chars = 3 * kept.reduce((sum, row) => sum + row.shown.length, 0);
  return { version: reader?.version ?? 0, cardVersion: reader?.cardVersion ?? 0, readAt, full, rows: kept, chars };
}

const TO_CARD = `,"toProfile":`;
const CARD = `,"profile":`;

function keptRow(row: WindowRow): KeptRow {
  const head = row.fields.slice(0, -1);
  const toCard = row.toCard ?? "null";
  const toCardAt = head.length + TO_CARD.length;
  const cardAt = toCardAt + toCard.length + CARD.length;
  return {
    id: row.id,
    memberId: row.memberId,
    toMemberId: row.toMemberId,
    shown: `${head}${TO_CARD}${toCard}${CARD}${row.card ?? "null"}}`,
    toCardAt,
    cardAt,
    toCardShrouded: row.toCardShrouded ?? "null",
    cardShrouded: row.cardShrouded ?? "null",
  };
}

/** Keeps `kept` as the room's newest read (stamped when it was read), the least recently read rooms going first. */
function keep(key: string, kept: Kept) {
  keptWindows.set(key, kept, kept.readAt);
}

/**
 * The page as the reader sees it, oldest first, or null when the kept rows cannot tell: the reader has HIDDEN_LIMIT
 * or more hidden members (the list is cut there), or they took more messages than the spare rows.
 */
function pageOf(kept: Kept, pageSize: number, reader: Reader | undefined, viewer: boolean, own: ReadonlyMap<number, string>): string | null {
  const hidden = new Set<string>(viewer && reader ? (JSON.parse(reader.hidden) as string[]) : []);
  const reported = new Set<number>(viewer && reader ? (JSON.parse(reader.reported) as number[]) : []);
  if (!reader || hidden.size >= HIDDEN_LIMIT || reported.size >= HIDDEN_LIMIT) return null;
  // Stranger media (stranger-media.ts): "everyone" shrouds every other card, as safe mode does; "notFollowed" depends
  // on whom the reader follows, which the kept rows do not know: that reader's page is read with every rule in SQL.
  if (viewer && reader.strangerMedia === "notFollowed") return null;
  // A member without a profile row sees no avatars (the page SQL's `coalesce(…, 0)`); a visitor sees renditions.
  const canSee = !viewer || Boolean(reader.canSee);
  const shrouded = !viewer || Boolean(reader.safeMode) || reader.strangerMedia === "everyone";
  const page: string[] = [];
  for (const row of kept.rows) {
    if (page.length === pageSize) break;
    if (hidden.has(row.memberId) || reported.has(row.id)) continue;
    page.push(own.get(row.id) ?? (!canSee ? withoutAvatars(row) : shrouded ? withRenditions(row) : row.shown));
  }
  if (page.length < pageSize && kept.full) return null;
  return `[${page.reverse().join(",")}]`;
}

/** The row with the cards a visitor or a safe-mode reader gets (renditions only), written by the window's SQL. */
function withRenditions(row: KeptRow): string {
  row.shownShrouded ??= `${row.shown.slice(0, row.toCardAt)}${row.toCardShrouded}${CARD}${row.cardShrouded}}`;
  return row.shownShrouded;
}

/** §6: the row's cards without avatars and blurred, as a reader without a qualifying avatar sees them. */
function withoutAvatars(row: KeptRow): string {
  if (row.shownWithoutAvatars !== undefined) return row.shownWithoutAvatars;
  const { shown, toCardAt, cardAt } = row;
  const hide = (card: string) => (card === "null" ? card : JSON.stringify({ ...JSON.parse(card), avator: "", blur: true }));
  const toCard = shown.slice(toCardAt, cardAt - CARD.length);
  const card = shown.slice(cardAt, -1);
  row.shownWithoutAvatars = `${shown.slice(0, toCardAt)}${hide(toCard)}${CARD}${hide(card)}}`;
  return row.shownWithoutAvatars;
}
