import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import {
  E2E_LINK_PAGE,
  E2eKeysQuery,
  E2eLinkedThreadKeysBody,
  type E2eKeysStored,
  type E2eWrappedThreadKey,
} from "../../contract/e2e-link";
import { ok } from "../../contract/envelope";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { deviceIdOf, type Member, requireOwnDevice } from "./e2e-link";
import { type LinkedKeyKind, linkedKeysOf, storeLinked } from "./linked-key-store";

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

/** Thread replies' keys for linked devices: only replies the caller holds keys of (any other id is skipped). */
const THREAD_KEYS: LinkedKeyKind = {
  table: "e2e_link_thread_keys",
  idColumn: "id_chat_message_thread",
  holds: (owner, id) => sql`exists (select 1 from chat_threads t where t.id_chat_message_thread = ${id} and ${heldByMember(owner)})`,
};

/** Stores thread reply keys re-wrapped for one of the caller's devices (linked-key-store.ts: bounded, first upload kept). */
export async function storeLinkedThreadKeys(env: Env, member: Member, deviceId: string, keys: E2eWrappedThreadKey[]): Promise<E2eKeysStored> {
  await requireOwnDevice(env, member, deviceId);
  return storeLinked(env, member, deviceId, THREAD_KEYS, keys.map((k) => ({ id: k.idChatMessageThread, wrappedKey: k.wrappedKey })));
}

/** The thread reply keys re-wrapped for one of the caller's devices, newest first. */
export async function linkedThreadKeys(env: Env, member: Member, deviceId: string, before?: number): Promise<E2eWrappedThreadKey[]> {
  await requireOwnDevice(env, member, deviceId);
  const keys = await linkedKeysOf(env, member, deviceId, THREAD_KEYS, before);
  return keys.map((k) => ({ idChatMessageThread: k.id, wrappedKey: k.wrappedKey }));
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
