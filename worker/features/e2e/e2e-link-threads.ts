import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { d1Batch } from "../../db/d1-batch";
import {
  E2E_LINK_PAGE,
  E2E_LINKED_KEYS_PAGE,
  E2E_MAX_LINKED_KEYS,
  E2eKeysQuery,
  E2eLinkedThreadKeysBody,
  type E2eKeysStored,
  type E2eWrappedThreadKey,
} from "../../contract/e2e-link";
import { ok } from "../../contract/envelope";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { AppError } from "../../lib/app-error";
import { deviceIdOf, type Member, requireOwnDevice } from "./e2e-link";

/**
 * Linking a device, for private thread replies (README Decisions "Linking a second device"): an encrypted private
 * reply in a thread (`chat_threads.payload`) is wrapped for the replier's and the note author's devices, so when
 * either links a new device, the old one re-wraps these keys too. Same rules as e2e-link.ts for chat messages:
 * owner-only, only replies the member holds keys of, at most E2E_MAX_LINKED_KEYS per device, first upload kept.
 */

/** The thread replies (alias `t`) whose keys the member's devices hold: their own, and those under their notes. */
const heldByMember = (m: Member) =>
  sql`t.project_code = ${m.projectCode} and t.is_private = 1 and t.deleted = 0
    and (t.member_id = ${m.memberId} or exists (select 1 from chat_messages n where n.id_chatroom_message = t.id_chatroom_message and n.member_id = ${m.memberId}))`;

/** Thread reply keys wrapped for one of the caller's devices, newest first: in the replies, and re-wrapped for it. */
export async function sourceThreadKeys(env: Env, member: Member, deviceId: string, before?: number): Promise<E2eWrappedThreadKey[]> {
  await requireOwnDevice(env, member, deviceId);
  const path = `$.deviceKeys."${member.memberNo}"."${deviceId}"`;
  const below = before ?? Number.MAX_SAFE_INTEGER;
  const results = await getDb(env).all<E2eWrappedThreadKey>(
    sql`select idChatMessageThread, wrappedKey from (
       select t.id_chat_message_thread as idChatMessageThread, json_extract(t.payload, ${path}) as wrappedKey from chat_threads t
       where ${heldByMember(member)} and t.id_chat_message_thread < ${below}
         and json_extract(t.payload, '$.type') = 'encrypted' and json_extract(t.payload, ${path}) is not null
       union all
       select id_chat_message_thread, wrapped_key from e2e_link_thread_keys
       where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId} and id_chat_message_thread < ${below}
     ) order by idChatMessageThread desc limit ${E2E_LINK_PAGE}`,
  );
  return results.filter((r) => typeof r.wrappedKey === "string");
}

/** Stores thread reply keys re-wrapped for one of the caller's devices; a reply the caller holds no key of is skipped. */
export async function storeLinkedThreadKeys(env: Env, member: Member, deviceId: string, keys: E2eWrappedThreadKey[]): Promise<E2eKeysStored> {
  await requireOwnDevice(env, member, deviceId);
  const held = await getDb(env).get<{ n: number }>(sql`select count(*) as n from e2e_link_thread_keys where member_id = ${member.memberId} and device_id = ${deviceId}`);
  if ((held?.n ?? 0) + keys.length > E2E_MAX_LINKED_KEYS) throw new AppError("e2eTooManyLinkedKeys");
  const now = Date.now();
  // One batch of conditional inserts, the bound inside each (racing uploads cannot pass it together).
  const statements = keys.map(
    (k) => sql`insert into e2e_link_thread_keys (project_code, member_id, device_id, id_chat_message_thread, wrapped_key, created_at)
       select ${member.projectCode}, ${member.memberId}, ${deviceId}, ${k.idChatMessageThread}, ${k.wrappedKey}, ${now}
       where exists (select 1 from chat_threads t where t.id_chat_message_thread = ${k.idChatMessageThread} and ${heldByMember(member)})
         and (select count(*) from e2e_link_thread_keys where member_id = ${member.memberId} and device_id = ${deviceId}) < ${E2E_MAX_LINKED_KEYS}
       on conflict (member_id, device_id, id_chat_message_thread) do nothing`,
  );
  const results = statements.length ? await d1Batch(env, statements) : [];
  return { stored: results.reduce((sum, r) => sum + (r.meta.changes ?? 0), 0) };
}

/** The thread reply keys re-wrapped for one of the caller's devices, newest first. */
export async function linkedThreadKeys(env: Env, member: Member, deviceId: string, before?: number): Promise<E2eWrappedThreadKey[]> {
  await requireOwnDevice(env, member, deviceId);
  return getDb(env).all<E2eWrappedThreadKey>(
    sql`select id_chat_message_thread as idChatMessageThread, wrapped_key as wrappedKey from e2e_link_thread_keys
     where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId} and id_chat_message_thread < ${before ?? Number.MAX_SAFE_INTEGER}
     order by id_chat_message_thread desc limit ${E2E_LINKED_KEYS_PAGE}`,
  );
}

/** Owner-only routes, beside e2e-link.ts's for chat messages. */
export const e2eLinkThreadsPrivate = new Hono<AppEnv>()
  .get("/sns/e2e-devices/:deviceId/thread-keys", validate("query", E2eKeysQuery), async (c) =>
    c.json(ok(await sourceThreadKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("query").before))),
  )
  .get("/sns/e2e-devices/:deviceId/linked-thread-keys", validate("query", E2eKeysQuery), async (c) =>
    c.json(ok(await linkedThreadKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("query").before))),
  )
  .post("/sns/e2e-devices/:deviceId/linked-thread-keys", validate("json", E2eLinkedThreadKeysBody), async (c) =>
    c.json(ok(await storeLinkedThreadKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("json").keys))),
  );
