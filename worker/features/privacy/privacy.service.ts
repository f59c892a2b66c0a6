import { and, eq, isNull } from "drizzle-orm";
import { is } from "drizzle-orm";
import { SQLiteTable, getTableConfig } from "drizzle-orm/sqlite-core";
import type { AccountDeleted, DataExport } from "../../contract/privacy";
import { mediaUrl } from "../../contract/media";
import { getDb } from "../../db/client";
import * as schema from "../../db/schema";
import { members, profiles, sessions } from "../../db/schema";
import { AppError } from "../../http/app-error";
import { randomString, verifyPassword } from "../../lib/crypto";
import { iso, now } from "../../lib/time";
import type { SessionMember } from "../session/session.service";

/**
 * Account deletion and data export (issue 10 §7). Both walk the drizzle schema rather than a hand-kept
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
 * 'deleted member'), missions keep their task, ledgers keep their history, moderation keeps its reports.
 * Every other row that names the member is deleted.
 */
const KEEP_TABLES = new Set([
  "members",
  "profiles",
  "sessions",
  "chat_messages",
  "chat_threads",
  "chat_reactions",
  "guestbook_entries",
  "tasks",
  "missions",
  "feedback",
  "coin_ledger",
  "wallet_transfers",
  "hierarchy_history",
  "flame_passes",
  "bidding_loops",
  "reports",
  "unqualified_reports",
  "mail_outbox",
]);

/** What deleted members are called wherever their messages remain (§ issue 10: 'deleted member'). */
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
    const sql = `select * from ${quote(table.name)} where ${rowsWhere(table, columns.length ? columns : table.memberColumns)} limit ${EXPORT_ROW_CAP}`;
    const statement = env.DB.prepare(sql);
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
    tables: out,
    media,
  };
}

/**
 * Deletes the account after checking the password: one atomic D1 batch wipes the profile, ends every session,
 * marks the member deleted (freeing the email) and removes every member-centric row; then the member's R2
 * media go. Messages stay and show 'deleted member'.
 */
export async function deleteAccount(env: Env, member: SessionMember, password: string): Promise<AccountDeleted> {
  const db = getDb(env);
  const row = await db.select({ passwordHash: members.passwordHash }).from(members).where(eq(members.id, member.memberId)).get();
  if (!row || !(await verifyPassword(password, row.passwordHash))) throw new AppError("wrongOldPassword");

  const at = now();
  const cleanup = memberTables()
    .filter((t) => !KEEP_TABLES.has(t.name))
    .map((table) => {
      const statement = env.DB.prepare(`delete from ${quote(table.name)} where ${rowsWhere(table, table.memberColumns)}`);
      return table.hasProject ? statement.bind(member.memberId, member.projectCode) : statement.bind(member.memberId);
    });
  const wipe = db
    .update(profiles)
    .set({
      nickname: DELETED_NICKNAME,
      introduction: "",
      avator: "",
      avatorBlur: "",
      qualify: false,
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
      birthday: null,
      closed: true,
      updatedAt: at,
    })
    .where(eq(profiles.memberId, member.memberId));
  const retire = db
    .update(members)
    .set({ status: "deleted", email: `deleted.${member.memberId}@deleted.invalid`, passwordHash: `deleted:${randomString(32)}`, referredBy: null })
    .where(eq(members.id, member.memberId));
  const endSessions = db.update(sessions).set({ endedAt: at }).where(and(eq(sessions.memberId, member.memberId), isNull(sessions.endedAt)));

  // One D1 batch, which is atomic: a failure anywhere leaves the account exactly as it was.
  const raw = [wipe, retire, endSessions].map((query) => {
    const { sql, params } = query.toSQL();
    return env.DB.prepare(sql).bind(...params);
  });
  await env.DB.batch([...raw, ...cleanup]);

  const media = await listMedia(env, member);
  for (let i = 0; i < media.length; i += 1000) await env.MEDIA.delete(media.slice(i, i + 1000).map((o) => o.key));
  return { deleted: true, mediaRemoved: media.length };
}
