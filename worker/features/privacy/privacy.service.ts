import { forgetSignals } from "../members/block-evasion";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { is } from "drizzle-orm";
import { SQLiteTable, getTableConfig } from "drizzle-orm/sqlite-core";
import type { AccountDeleted, DataExport } from "../../contract/privacy";
import { mediaUrl } from "../../contract/media";
import { getDb } from "../../db/client";
import { d1Statements } from "../../db/d1-batch";
import * as schema from "../../db/schema";
import { endMemberSockets } from "../../lib/end-sessions";
import { aiImages, albumPhotos, albumUploads, mailOutbox, mediaUploads, members, profiles, sessions } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { PRIVATE_PLACEHOLDER } from "../../contract/chat";
import { randomString, verifyPassword } from "../../lib/crypto";
import { newDeletedCode } from "../../lib/ids";
import { iso, MINUTE, now } from "../../lib/time";
import type { SessionMember } from "../../lib/session-member";
import { deleteMedia } from "../images/edge-cache";

/**
 * Account deletion and data export (§7). Both walk the drizzle schema rather than a hand-kept
 * list, so a table a feature adds later is exported (and, unless it holds shared content, cleaned up)
 * without anyone remembering to touch this file.
 */

/** Columns that hold a member's private account id. */
const MEMBER_COLUMN = /^(member_id|requester_id|addressee_id|visitor_id|[a-z_]+_member_id)$/;
/**
 * Rows where the member is only the object of someone else's act (a block, mute, report, bid, the actor of a
 * notification) belong to that someone: exporting them would reveal who blocked or reported the member.
 */
const NOT_THE_MEMBERS = /^(target_|actor_|last_bidder_)/;
/** Secrets never leave the database, not even to their owner (hashes of passwords, tokens, codes, keys). */
const SECRET_COLUMN = /(^|_)(password|token|code|secret|secret_key|key)_hash$/;
const EXPORT_ROW_CAP = 5000;

/**
 * Shared content and ledgers survive the account: others' conversations keep their messages (shown as
 * 'deleted member', private bodies erased by `erasures`), missions keep their task, ledgers keep their history,
 * moderation keeps its reports (reasons erased). Every other row that names the member is deleted: feedback, guestbook
 * entries either way (only the two members ever read them, and one is gone), reminders, requests, visits...
 */
const KEEP_TABLES = new Set([
  "members",
  "profiles",
  "sessions",
  "chat_messages",
  "chat_threads",
  "chat_reactions",
  "tasks",
  "missions",
  "coin_ledger",
  "wallet_transfers",
  "hierarchy_history",
  "flame_passes",
  "bidding_loops",
  "reports",
  "unqualified_reports",
]);

/** What deleted members are called wherever their messages remain (§8: 'deleted member'). */
export const DELETED_NICKNAME = "deleted member";

type TableInfo = { name: string; columns: string[]; memberColumns: string[]; hasProject: boolean };

let cachedTables: TableInfo[] | undefined;
function memberTables(): TableInfo[] {
  if (cachedTables) return cachedTables;
  const tables: TableInfo[] = [];
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const config = getTableConfig(value);
    const columns = config.columns.map((c) => c.name);
    const memberColumns = config.name === "members" ? ["id"] : columns.filter((c) => MEMBER_COLUMN.test(c));
    if (memberColumns.length) tables.push({ name: config.name, columns, memberColumns, hasProject: columns.includes("project_code") });
  }
  cachedTables = tables.sort((a, b) => a.name.localeCompare(b.name));
  return cachedTables;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function rowsWhere(table: TableInfo, columns: string[]) {
  const who = columns.map((c) => `${quote(c)} = ?1`).join(" or ");
  return table.hasProject ? `${quote("project_code")} = ?2 and (${who})` : `(${who})`;
}

async function listMedia(env: Env, member: SessionMember) {
  const prefix = `${member.projectCode}/${member.memberNo}/`;
  const objects: { key: string; size: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ prefix, cursor, limit: 1000 });
    for (const object of page.objects) objects.push({ key: object.key, size: object.size });
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

/** Every row about the member, table by table (one D1 batch), plus the keys of their media. */
export async function exportData(env: Env, member: SessionMember): Promise<DataExport> {
  const tables = memberTables();
  const statements = tables.map((table) => {
    const columns = table.memberColumns.filter((c) => !NOT_THE_MEMBERS.test(c));
    const text = `select * from ${quote(table.name)} where ${rowsWhere(table, columns.length ? columns : table.memberColumns)} limit ${EXPORT_ROW_CAP}`;
    // SQL made from table metadata: the one place outside worker/db/ that prepares (README Decisions "One way to reach D1").
    const statement = env.DB.prepare(text);
    return table.hasProject ? statement.bind(member.memberId, member.projectCode) : statement.bind(member.memberId);
  });
  const results = statements.length ? await env.DB.batch<Record<string, unknown>>(statements) : [];
  const out: DataExport["tables"] = {};
  results.forEach((result, i) => {
    const table = tables[i]!;
    if (table.memberColumns.every((c) => NOT_THE_MEMBERS.test(c))) return;
    const rows = result.results.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !SECRET_COLUMN.test(column))));
    if (rows.length) out[table.name] = rows;
  });
  const media = (await listMedia(env, member)).map((o) => ({ ...o, url: mediaUrl(o.key) }));
  return {
    exportedAt: iso(now())!,
    memberId: member.memberId,
    memberNo: member.memberNo,
    projectCode: member.projectCode,
    tables: await withPublicNumbers(env, member, out),
    media,
  };
}

/** The shape of a private account id (`newMemberId`), wherever it sits in a value (JSON parameters included). */
const MEMBER_ID_TEXT = /\bm[A-Za-z0-9]{23}\b/g;

/**
 * The export names other members only by their public member number: another member's private id (a follow's
 * target, a message's sender, a referrer, an id inside JSON parameters) is the key to their private paths, so it is
 * replaced by their number — or by null (inside text: nothing) when their account is deleted or in another tenant.
 * A member column (`*_member_id`, `visitor_id`…) holding another member's id is renamed to `*_no`.
 */
async function withPublicNumbers(env: Env, member: SessionMember, tables: DataExport["tables"]): Promise<DataExport["tables"]> {
  const found = new Set<string>();
  for (const rows of Object.values(tables))
    for (const row of rows)
      for (const value of Object.values(row)) if (typeof value === "string") for (const id of value.match(MEMBER_ID_TEXT) ?? []) found.add(id);
  found.delete(member.memberId);
  // Only real member ids are replaced (a client's request id may happen to have the same shape).
  const numbers = new Map<string, string | null>();
  if (found.size) {
    const rows = await getDb(env).all<{ id: string; projectCode: string; memberNo: string; status: string }>(
      sql`select id, project_code as projectCode, simple_code as memberNo, status from members where id in (select value from json_each(${JSON.stringify([...found])}))`,
    );
    for (const row of rows) numbers.set(row.id, row.projectCode === member.projectCode && row.status !== "deleted" ? row.memberNo : null);
  }
  const publicOf = (value: string) => value.replace(MEMBER_ID_TEXT, (id) => (numbers.has(id) ? (numbers.get(id) ?? "") : id));
  const out: DataExport["tables"] = {};
  for (const [name, rows] of Object.entries(tables)) {
    out[name] = rows.map((row) => {
      const clean: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === "string" && numbers.has(value)) {
          const renamed = MEMBER_COLUMN.test(column) ? column.replace(/_id$/, "_no") : column;
          clean[renamed] = numbers.get(value);
        } else if (!(column in clean)) {
          // A stored `member_no` beside a renamed `member_id` says the same; the first one written stays.
          clean[column] = typeof value === "string" ? publicOf(value) : value;
        }
      }
      return clean;
    });
  }
  return out;
}

/** R2 keys of the member's media: everything under their prefix, plus any upload a feature recorded elsewhere. */
async function mediaKeysOf(env: Env, member: SessionMember) {
  const db = getDb(env);
  const keys = new Set((await listMedia(env, member)).map((o) => o.key));
  const recorded = await db.batch([
    db.select({ key: mediaUploads.key }).from(mediaUploads).where(eq(mediaUploads.memberId, member.memberId)),
    db.select({ key: albumUploads.mediaKey }).from(albumUploads).where(eq(albumUploads.memberId, member.memberId)),
    db.select({ key: albumPhotos.mediaKey }).from(albumPhotos).where(eq(albumPhotos.memberId, member.memberId)),
    db.select({ key: aiImages.mediaKey }).from(aiImages).where(eq(aiImages.memberId, member.memberId)),
  ]);
  for (const rows of recorded) for (const row of rows) if (row.key) keys.add(row.key);
  return [...keys];
}

/**
 * What the member wrote that others still hold, erased in the deletion batch (README Decisions "Deleting an
 * account"): a private message or private thread reply they sent keeps its place in the conversation with the
 * placeholder others already see (§6), so the recipient keeps nothing readable; a shared-room message whose only
 * content was an image (now removed from R2) is deleted; their reports keep no reason; their missions keep no text
 * or cover, the missions they reviewed no remark. Messages others sent to them stay their senders' own words.
 */
function erasures(member: SessionMember): SQL[] {
  const { memberId, projectCode } = member;
  return [
    sql`update chat_messages set message = ${PRIVATE_PLACEHOLDER}, payload = '{}'
      where project_code = ${projectCode} and member_id = ${memberId} and (is_private = 1 or to_member_id is not null)`,
    sql`update chat_messages set deleted = 1, message = '', payload = '{}'
      where project_code = ${projectCode} and member_id = ${memberId} and is_private = 0 and to_member_id is null
        and json_valid(payload) and json_extract(payload, '$.type') in ('img', 'encodedImage')`,
    sql`update chat_threads set message = ${PRIVATE_PLACEHOLDER}, payload = null where project_code = ${projectCode} and member_id = ${memberId} and is_private = 1`,
    sql`update reports set reason = '' where project_code = ${projectCode} and member_id = ${memberId}`,
    sql`update missions set description = '', remark = '', cover = '' where project_code = ${projectCode} and member_id = ${memberId}`,
    sql`update missions set review_remark = '' where project_code = ${projectCode} and reviewer_member_id = ${memberId}`,
    // The tenant's member count leaves the account out (lists and counts exclude it), once.
    sql`update project_counters set members = max(members - 1, 0)
      where project_code = ${projectCode} and exists (select 1 from members where id = ${memberId} and status <> 'deleted')`,
  ];
}

/** How recent a LINE sign-in must be to stand in for the password an account made through LINE does not have. */
export const FRESH_SIGN_IN = 10 * MINUTE;

/**
 * An account made through LINE (an empty password hash, README Decisions "LINE login") proves it is its owner by
 * this session being a sign-in of the last FRESH_SIGN_IN: a session kept on a shared or stolen device is not enough.
 */
async function requireFreshSignIn(env: Env, member: SessionMember) {
  const session = await getDb(env).select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, member.sessionId)).get();
  if (!session || now() - session.createdAt > FRESH_SIGN_IN) throw new AppError("lineRecentSignInRequired");
}

/**
 * Deletes the account after checking the password (or, without one, a fresh LINE sign-in): one atomic D1 batch wipes the profile (nothing of the member
 * is left on it: no role, orientation, sign, counts, dates or number), ends every session, marks the member deleted
 * (freeing the email), erases what they wrote that others hold (`erasures`), removes every member-centric row and
 * the mail sent to them; then the member's R2 media go. The old member number answers 404 everywhere; their
 * remaining public messages show a bare 'deleted member' card.
 */
export async function deleteAccount(env: Env, member: SessionMember, password: string): Promise<AccountDeleted> {
  const db = getDb(env);
  const row = await db
    .select({ passwordHash: members.passwordHash, email: members.email })
    .from(members)
    .where(eq(members.id, member.memberId))
    .get();
  if (!row) throw new AppError("wrongOldPassword");
  if (row.passwordHash === "") await requireFreshSignIn(env, member);
  else if (!(await verifyPassword(password, row.passwordHash))) throw new AppError("wrongOldPassword");

  const at = now();
  // Read before the batch removes the rows that name them.
  const mediaKeys = await mediaKeysOf(env, member);
  const cleanup = memberTables()
    .filter((t) => !KEEP_TABLES.has(t.name))
    .map((table) => {
      // SQL made from table metadata (README Decisions "One way to reach D1").
      const statement = env.DB.prepare(`delete from ${quote(table.name)} where ${rowsWhere(table, table.memberColumns)}`);
      return table.hasProject ? statement.bind(member.memberId, member.projectCode) : statement.bind(member.memberId);
    });
  const wipe = db
    .update(profiles)
    .set({
      simpleCode: newDeletedCode(),
      nickname: DELETED_NICKNAME,
      introduction: "",
      avator: "",
      avatorBlur: "",
      qualify: false,
      blur: false,
      blocked: false,
      unqualifiedCount: 0,
      multiGender: null,
      genderLocked: false,
      lookFor: 0,
      muted: false,
      kycStatus: 0,
      birthday: null,
      zodiacSign: null,
      closed: true,
      isRainbow: false,
      safeword: "",
      phone: "",
      mobile: "",
      defaultAddress: "",
      skypeId: "",
      wechatId: "",
      telegramId: "",
      twitterId: "",
      instagramId: "",
      dcardId: "",
      websiteUrl: "",
      emailHash: "",
      language: null,
      publicKey: null,
      geohash: null,
      latitude: null,
      longitude: null,
      showPosition: false,
      biddingCount: 0,
      pageViews: 0,
      lastAccess: null,
      lastChatAt: null,
      createdAt: 0,
      updatedAt: 0,
    })
    .where(eq(profiles.memberId, member.memberId));
  const retire = db
    .update(members)
    .set({
      status: "deleted",
      email: `deleted.${member.memberId}@deleted.invalid`,
      passwordHash: `deleted:${randomString(32)}`,
      referralCode: newDeletedCode(),
      referredBy: null,
      referralCount: 0,
      lastLoginAt: null,
    })
    .where(eq(members.id, member.memberId));
  const endSessions = db.update(sessions).set({ endedAt: at }).where(and(eq(sessions.memberId, member.memberId), isNull(sessions.endedAt)));
  // Reset links and one-time codes sent to the address (the local outbox; production mail is not stored).
  const mail = db.delete(mailOutbox).where(and(eq(mailOutbox.projectCode, member.projectCode), eq(mailOutbox.toEmail, row.email)));

  // One D1 batch, which is atomic: a failure anywhere leaves the account exactly as it was. The erasures (the member
  // count among them) read the account's status, so they come before `retire`. The cleanup's SQL is made from table
  // metadata, so the batch is of D1 statements (db/d1-batch.ts `d1Statements` for the rest).
  await env.DB.batch([...d1Statements(env, [...erasures(member), wipe, mail, retire, endSessions, ...forgetSignals(env, member.memberId)]), ...cleanup]);
  await endMemberSockets(env, member.projectCode, member.memberId);

  // R2 and the edge cache (edge-cache.ts): nothing of the account is served from either afterwards.
  await deleteMedia(env, mediaKeys);
  return { deleted: true, mediaRemoved: mediaKeys.length };
}
