import { type SQL, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { d1Batch } from "../../db/d1-batch";
import { E2E_LINKED_KEYS_PAGE, E2E_MAX_LINKED_KEYS, type E2eKeysStored } from "../../contract/e2e-link";
import { AppError } from "../../lib/app-error";
import type { SessionMember } from "../../lib/session-member";

type Owner = Pick<SessionMember, "memberId" | "memberNo" | "projectCode">;

/**
 * One kind of key re-wrapped for a linked device (README Decisions "Linking a second device"): chat messages'
 * (e2e-link.ts) and private thread replies' (e2e-link-threads.ts). Table and column names are these constants, never
 * input.
 */
export type LinkedKeyKind = {
  table: "e2e_link_keys" | "e2e_link_thread_keys";
  idColumn: "id_chatroom_message" | "id_chat_message_thread";
  /** The item `id` exists and the owner's devices hold a key of it: only such keys are stored. */
  holds: (owner: Owner, id: number) => SQL;
};

export type StoredKey = { id: number; wrappedKey: string };

/**
 * Stores keys re-wrapped for a device the caller has shown to be the owner's (`requireOwnDevice`). An item the owner
 * holds no key of is skipped; the bound and the insert are one statement per key, so racing uploads cannot pass
 * E2E_MAX_LINKED_KEYS together (one batch, one round trip: raw `sql` has no builder form, so `d1Batch`). A key already
 * stored stays: a later upload (a stolen session's) cannot spoil it.
 */
export async function storeLinked(env: Env, owner: Owner, deviceId: string, kind: LinkedKeyKind, keys: StoredKey[]): Promise<E2eKeysStored> {
  const table = sql.raw(kind.table);
  const idColumn = sql.raw(kind.idColumn);
  const heldCount = sql`(select count(*) from ${table} where member_id = ${owner.memberId} and device_id = ${deviceId})`;
  const held = await getDb(env).get<{ n: number }>(sql`select ${heldCount} as n`);
  if ((held?.n ?? 0) + keys.length > E2E_MAX_LINKED_KEYS) throw new AppError("e2eTooManyLinkedKeys");
  const now = Date.now();
  const statements = keys.map(
    (k) => sql`insert into ${table} (project_code, member_id, device_id, ${idColumn}, wrapped_key, created_at)
       select ${owner.projectCode}, ${owner.memberId}, ${deviceId}, ${k.id}, ${k.wrappedKey}, ${now}
       where ${kind.holds(owner, k.id)} and ${heldCount} < ${E2E_MAX_LINKED_KEYS}
       on conflict (member_id, device_id, ${idColumn}) do nothing`,
  );
  const results = statements.length ? await d1Batch(env, statements) : [];
  return { stored: results.reduce((sum, r) => sum + (r.meta.changes ?? 0), 0) };
}

/** The keys re-wrapped for one of the owner's devices, newest item first, a page below `before`. */
export function linkedKeysOf(env: Env, owner: Owner, deviceId: string, kind: LinkedKeyKind, before?: number): Promise<StoredKey[]> {
  const idColumn = sql.raw(kind.idColumn);
  return getDb(env).all<StoredKey>(
    sql`select ${idColumn} as id, wrapped_key as wrappedKey from ${sql.raw(kind.table)}
     where member_id = ${owner.memberId} and project_code = ${owner.projectCode} and device_id = ${deviceId} and ${idColumn} < ${before ?? Number.MAX_SAFE_INTEGER}
     order by ${idColumn} desc limit ${E2E_LINKED_KEYS_PAGE}`,
  );
}
