import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { blocks, mutes } from "../../db/schema";

/**
 * The one place that decides who is hidden from whom. Every list, search, feed, room and notification
 * filters with these, so a block is total and two-way and a mute is one-way and silent.
 */

type Member = string | SQLWrapper;

// A row of `blocks b` or `mutes m` that still holds at `at` (timed blocks and mutes lift themselves).
const liveAt = (alias: "b" | "m", at: SQLWrapper | number) => sql`(${sql.raw(alias)}.expires_at is null or ${sql.raw(alias)}.expires_at > ${at})`;

/** SQL condition: `blocker` has a live block on `target` (one way). */
export function blocking(blocker: Member, target: Member, at: SQLWrapper | number = Date.now()): SQL {
  return sql`exists (select 1 from blocks b where b.member_id = ${blocker} and b.target_member_id = ${target} and ${liveAt("b", at)})`;
}

/** SQL condition: `a` and `b` have a live block in either direction (what hides them from each other). */
export function blockedEitherWay(a: Member, b: Member, at: SQLWrapper | number = Date.now()): SQL {
  return sql`exists (select 1 from blocks b where
    ((b.member_id = ${a} and b.target_member_id = ${b}) or (b.member_id = ${b} and b.target_member_id = ${a}))
    and ${liveAt("b", at)})`;
}

/** A column of `blocker`'s live block on `target` as a scalar subquery (null without one): its id or its end. */
export function liveBlockColumn(column: "id_block" | "expires_at", blocker: Member, target: Member, at: SQLWrapper | number = Date.now()): SQL {
  return sql`(select b.${sql.raw(column)} from blocks b where b.member_id = ${blocker} and b.target_member_id = ${target} and ${liveAt("b", at)})`;
}

/** SQL condition: `muter` has a live mute on `target` (one way, silent). */
export function muting(muter: Member, target: Member, at: SQLWrapper | number = Date.now()): SQL {
  return sql`exists (select 1 from mutes m where m.member_id = ${muter} and m.target_member_id = ${target} and ${liveAt("m", at)})`;
}

/** When `muter`'s live mute on `target` ends, as a scalar subquery (null: no live mute, or one without an end). */
export function liveMuteEnd(muter: Member, target: Member, at: SQLWrapper | number = Date.now()): SQL {
  return sql`(select m.expires_at from mutes m where m.member_id = ${muter} and m.target_member_id = ${target} and ${liveAt("m", at)})`;
}

/** SQL condition: the member in `memberColumn` and the viewer have no live block in either direction. */
export function notBlockedWith(viewerMemberId: string | SQLWrapper | null | undefined, memberColumn: SQLWrapper, at = Date.now()): SQL {
  if (!viewerMemberId) return sql`1 = 1`;
  return sql`not ${blockedEitherWay(viewerMemberId, memberColumn, at)}`;
}

// Live blocks with the viewer either way, in `blocks b`, and the other member of each.
const liveBlocksWith = (viewerMemberId: SQLWrapper | string, at: SQLWrapper | number) =>
  sql`(b.member_id = ${viewerMemberId} or b.target_member_id = ${viewerMemberId}) and ${liveAt("b", at)}`;
const otherOfBlock = (viewerMemberId: SQLWrapper | string) => sql`case when b.member_id = ${viewerMemberId} then b.target_member_id else b.member_id end`;

/**
 * The members with a live block with the viewer, either way (those `notBlockedWith` hides), as a select of
 * `memberId`: for callers that apply the rule to rows they already hold (the kept home lists).
 */
export function blockedWith(db: Db, viewerMemberId: string, at = Date.now()) {
  return db
    .select({ memberId: sql<string>`${otherOfBlock(viewerMemberId)}`.as("other_member_id") })
    .from(sql`${blocks} b`)
    .where(liveBlocksWith(viewerMemberId, at))
    .$dynamic();
}

/**
 * The members with a live mute on `memberId` (the other side of `notMutedBy`), as a select of `memberId`: for
 * callers that must keep a member's messages from those muting them (a chat message's fan-out).
 */
export function mutersOf(db: Db, memberId: string, at = Date.now()) {
  return db
    .select({ memberId: mutes.memberId })
    .from(mutes)
    .where(and(eq(mutes.targetMemberId, memberId), sql`(${mutes.expiresAt} is null or ${mutes.expiresAt} > ${at})`))
    .$dynamic();
}

/**
 * A JSON array of up to `limit` members hidden from the viewer: a live block either way or the viewer's live mute
 * (those `notBlockedWith` and `notMutedBy` hide), for callers that apply the rules to rows they already hold (kept
 * chat pages). `limit` entries mean there may be more.
 */
export function hiddenFromSql(viewerMemberId: SQLWrapper | string, at: SQLWrapper | number, limit: number): SQL {
  return sql`(select json_group_array(hidden_member_id) from (
    select ${otherOfBlock(viewerMemberId)} as hidden_member_id from ${blocks} b where ${liveBlocksWith(viewerMemberId, at)}
    union select m.target_member_id from mutes m where m.member_id = ${viewerMemberId} and ${liveAt("m", at)}
    limit ${sql.raw(String(limit))}))`;
}

/** SQL condition: the viewer has not muted the member in `memberColumn` (one-way). */
export function notMutedBy(viewerMemberId: string | null | undefined, memberColumn: SQLWrapper, at = Date.now()): SQL {
  if (!viewerMemberId) return sql`1 = 1`;
  return sql`not ${muting(viewerMemberId, memberColumn, at)}`;
}

/** True when either member has a live block on the other. */
export async function isBlockedBetween(env: Env, a: string, b: string, at = Date.now()): Promise<boolean> {
  const row = await getDb(env).get<{ n: number }>(sql`select ${blockedEitherWay(a, b, at)} as n`);
  return (row?.n ?? 0) > 0;
}

/** True when `muter` has a live mute on `target`. */
export async function isMutedBy(env: Env, muter: string, target: string, at = Date.now()): Promise<boolean> {
  const row = await getDb(env).get<{ n: number }>(sql`select ${muting(muter, target, at)} as n`);
  return (row?.n ?? 0) > 0;
}

/**
 * SQL condition: the viewer has not reported the item `kind` with the id in `idColumn` (report_hides, migration 0032):
 * a reported item disappears for its reporter at once, and for nobody else (README Decisions "Block evasion and
 * per-item reports").
 */
export function notReportedBy(viewerMemberId: string | SQLWrapper | null | undefined, kind: "chat" | "guestbook", idColumn: SQLWrapper): SQL {
  if (!viewerMemberId) return sql`1 = 1`;
  return sql`not exists (select 1 from report_hides h where h.member_id = ${viewerMemberId} and h.kind = ${kind} and h.item_id = ${idColumn})`;
}

/** A JSON array of up to `limit` chat message ids the viewer reported (for the kept chat pages, as `hiddenFromSql`). */
export function reportedChatSql(viewerMemberId: SQLWrapper | string, limit: number): SQL {
  return sql`(select json_group_array(item_id) from (select h.item_id from report_hides h where h.member_id = ${viewerMemberId} and h.kind = 'chat'
    limit ${sql.raw(String(limit))}))`;
}

/** True when `memberId` reported the item (its page answers "not found" to them). */
export async function isReportedBy(env: Env, memberId: string, kind: "chat" | "guestbook", itemId: number): Promise<boolean> {
  const row = await getDb(env).get<{ n: number }>(sql`select count(*) as n from report_hides where member_id = ${memberId} and kind = ${kind} and item_id = ${itemId}`);
  return (row?.n ?? 0) > 0;
}
