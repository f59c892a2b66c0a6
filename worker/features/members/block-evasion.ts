import { and, eq, or, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { accountSignals, evasionWatches, reportHides } from "../../db/schema";
import { toHex } from "../../lib/crypto";
import { keptIn } from "../../lib/kept";
import { DAY } from "../../lib/time";

/**
 * Block evasion (README Decisions "Block evasion and per-item reports"). At sign-up and login the worker keeps two
 * keyed hashes per account — of the client address (CF-Connecting-IP) and of a first-party random device id — never
 * the raw values. A member who blocks "and new accounts this person makes" keeps the blocked account's hashes; an
 * account created after that block which signs up or logs in with one of them is blocked by that member too,
 * silently. Operators see, on a report, how many other accounts share a hash.
 */

/** How long a signal is kept after it was last seen, and a remembered watch after its block (retention.ts). */
export const SIGNAL_LIFETIME = 90 * DAY;
/** The first-party device id cookie: random, HttpOnly, set on the first sign-up or login from a browser. */
export const DEVICE_COOKIE = "velvet_device";
export const DEVICE_COOKIE_MAX_AGE = 400 * 86400;
/** Related accounts an operator sees on one case (count is exact up to this; memberNos are listed up to it). */
export const RELATED_LIMIT = 20;

type SignalKind = "address" | "device";
export type Signals = { address: string | null; deviceId: string | null };

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

/**
 * HMAC-SHA-256 under SIGNAL_SECRET of tenant, kind and value: the same address in two tenants hashes apart, so rows
 * cannot be joined across tenants, and without the secret a hash cannot be tested against guessed addresses.
 */
export async function signalHash(env: Env, projectCode: string, kind: SignalKind, value: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyOf(env.SIGNAL_SECRET), encoder.encode(`${projectCode}\n${kind}\n${value}`));
  return toHex(mac);
}

async function hashesOf(env: Env, projectCode: string, signals: Signals) {
  const out: { kind: SignalKind; hash: string }[] = [];
  if (signals.address) out.push({ kind: "address", hash: await signalHash(env, projectCode, "address", signals.address) });
  if (signals.deviceId) out.push({ kind: "device", hash: await signalHash(env, projectCode, "device", signals.deviceId) });
  return out;
}

/**
 * At sign-up and login: the account's signal hashes are stored (or their last-seen time moved), and hashes seen for
 * the first time on this account are matched against the tenant's watches. Only new evidence blocks: a member who
 * lifted a block made this way is not blocked again by the same address or device.
 */
export async function recordSignals(env: Env, projectCode: string, memberId: string, signals: Signals, at = Date.now()) {
  const hashes = await hashesOf(env, projectCode, signals);
  if (!hashes.length) return;
  const db = getDb(env);
  const [first, ...rest] = hashes.map((h) =>
    db
      .insert(accountSignals)
      .values({ projectCode, memberId, kind: h.kind, hash: h.hash, firstSeenAt: at, lastSeenAt: at })
      .onConflictDoUpdate({ target: [accountSignals.memberId, accountSignals.kind, accountSignals.hash], set: { lastSeenAt: at } })
      .returning({ hash: accountSignals.hash, firstSeenAt: accountSignals.firstSeenAt }),
  );
  const written = await db.batch([first!, ...rest]);
  // Only a browser the blocked account used is evidence enough to block on its own: an address is shared by a
  // household, an office, a venue or a carrier, whose other members must not be blocked (addresses still tell
  // operators about related accounts).
  const devices = new Set(hashes.filter((h) => h.kind === "device").map((h) => h.hash));
  const fresh = written.flat().filter((row) => row.firstSeenAt === at && devices.has(row.hash)).map((row) => row.hash);
  if (fresh.length) await blockNewAccount(env, projectCode, memberId, fresh, at);
}

/**
 * Every member whose live "also new accounts" block watches one of `hashes` blocks this account, when it was created
 * after that block and is neither the blocker nor the blocked account itself. One home for blocks: the row is the
 * same `blocks` row a member's own block writes (visibility.ts reads it), so it is total and two-way; the blocked
 * person is never told, and the blocker is not either: the row is marked `made_by_evasion`, which the blocked list
 * leaves out (naming the new account would tell the blocker who the blocked person's other accounts are).
 */
async function blockNewAccount(env: Env, projectCode: string, memberId: string, hashes: string[], at: number) {
  await getDb(env).run(sql`
    insert into blocks (project_code, member_id, target_member_id, created_at, expires_at, also_new_accounts, made_by_evasion)
    select distinct w.project_code, w.member_id, ${memberId}, ${at}, b.expires_at, 0, 1
    from evasion_watches w
    join blocks b on b.member_id = w.member_id and b.target_member_id = w.blocked_member_id and b.also_new_accounts = 1
      and (b.expires_at is null or b.expires_at > ${at})
    join members m on m.id = ${memberId}
    where w.project_code = ${projectCode} and w.hash in (${sql.join(hashes.map((h) => sql`${h}`), sql`, `)})
      and w.member_id <> ${memberId} and w.blocked_member_id <> ${memberId} and m.created_at > w.created_at
    on conflict (member_id, target_member_id) do nothing`);
}

/**
 * The blocker's choice on a block: on, the blocked account's current signal hashes are remembered for the blocker;
 * off, they are forgotten. Returned as statements for the block's own batch.
 */
export function watchStatements(env: Env, projectCode: string, memberId: string, blockedMemberId: string, on: boolean, at: number) {
  const db = getDb(env);
  const forget = db.delete(evasionWatches).where(and(eq(evasionWatches.memberId, memberId), eq(evasionWatches.blockedMemberId, blockedMemberId)));
  if (!on) return [forget] as const;
  return [
    forget,
    db
      .insert(evasionWatches)
      .select(
        db
          .selectDistinct({
            projectCode: sql`${projectCode}`.as("project_code"),
            memberId: sql`${memberId}`.as("member_id"),
            blockedMemberId: sql`${blockedMemberId}`.as("blocked_member_id"),
            hash: accountSignals.hash,
            createdAt: sql`${at}`.as("created_at"),
          })
          .from(accountSignals)
          .where(and(eq(accountSignals.memberId, blockedMemberId), eq(accountSignals.projectCode, projectCode))) as never,
      )
      .onConflictDoNothing(),
  ] as const;
}

/**
 * Other accounts of the tenant sharing a signal hash with each member (operators' "related accounts"), at most
 * RELATED_LIMIT names each with the true count. Anyone who reported or marked that member is left out: the queue never
 * names reporters (SECURITY.md), and a reporter on the same network as the reported member would otherwise be named here.
 */
export async function relatedAccounts(env: Env, projectCode: string, memberIds: string[]): Promise<Map<string, { count: number; memberNos: string[] }>> {
  const out = new Map<string, { count: number; memberNos: string[] }>();
  if (!memberIds.length) return out;
  const rows = await getDb(env).all<{ memberId: string; memberNo: string; total: number }>(sql`
    select memberId, memberNo, total from (
      select memberId, memberNo, row_number() over (partition by memberId order by memberNo) as n, count(*) over (partition by memberId) as total
      from (
        select distinct s.member_id as memberId, p.simple_code as memberNo
        from account_signals s join account_signals o on o.project_code = s.project_code and o.hash = s.hash and o.member_id <> s.member_id
        join profiles p on p.member_id = o.member_id
        where s.project_code = ${projectCode} and s.member_id in (${sql.join(memberIds.map((id) => sql`${id}`), sql`, `)})
          and p.simple_code not like 'deleted-%'
          and not exists (select 1 from reports r where r.target_member_id = s.member_id and r.member_id = o.member_id)
          and not exists (
            select 1 from unqualified_reports u join profiles tp on tp.id_profile = u.id_profile
            where tp.member_id = s.member_id and u.reporter_id = o.member_id)))
    where n <= ${RELATED_LIMIT}`);
  for (const row of rows) {
    const entry = keptIn(out, row.memberId, () => ({ count: row.total, memberNos: [] as string[] }));
    entry.memberNos.push(row.memberNo);
  }
  return out;
}

/** A deleted account's signals, watches and item hides go with it (privacy.service's one deletion batch). */
export function forgetSignals(env: Env, memberId: string) {
  const db = getDb(env);
  return [
    db.delete(accountSignals).where(eq(accountSignals.memberId, memberId)),
    db.delete(evasionWatches).where(or(eq(evasionWatches.memberId, memberId), eq(evasionWatches.blockedMemberId, memberId))),
    db.delete(reportHides).where(eq(reportHides.memberId, memberId)),
  ] as const;
}
