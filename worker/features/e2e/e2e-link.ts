import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { E2eDeviceIdParam } from "../../contract/e2e";
import {
  E2E_LINK_PAGE,
  E2E_LINK_TTL_MS,
  E2eKeysQuery,
  E2eLinkedKeysBody,
  E2eLinkRequestBody,
  type E2eKeysStored,
  type E2eLinkRequest,
  type E2eLinkStarted,
  type E2eWrappedKey,
} from "../../contract/e2e-link";
import { ok } from "../../contract/envelope";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { AppError } from "../../lib/app-error";
import type { SessionMember } from "../../lib/session-member";
import { type LinkedKeyKind, linkedKeysOf, storeLinked } from "./linked-key-store";

/**
 * Linking a member's new end-to-end device from one they already use (README Decisions "Linking a second device";
 * SECURITY.md "End-to-end encrypted private messages"). Every route acts on the session's own devices only: another
 * member's (or tenant's) device id is simply not among them, so it is 404. The server relays a tag it cannot check
 * and stores message keys wrapped for one device; it never sees a code, a private key or a message key in the clear.
 */
export type Member = Pick<SessionMember, "memberId" | "memberNo" | "projectCode">;

/**
 * The messages whose keys the caller's devices hold, in SQL: those of the caller's one-to-one rooms
 * (`dm-<low>-<high>`, chat.constants.ts) and the private replies in shared rooms the caller sent or received.
 */
const heldByMember = (m: Member) =>
  sql`(chatroom_id like 'dm-' || ${m.memberNo} || '-%' or chatroom_id like 'dm-%-' || ${m.memberNo} or (is_private = 1 and (member_id = ${m.memberId} or to_member_id = ${m.memberId})))`;

export function deviceIdOf(raw: string | undefined) {
  const result = E2eDeviceIdParam.safeParse(raw);
  if (!result.success) throw new AppError("badRequest", { issues: result.error.issues.map((i) => ({ path: ["deviceId"], message: i.message, code: i.code })) });
  return result.data;
}

export async function requireOwnDevice(env: Env, member: Member, deviceId: string) {
  const row = await getDb(env).get(
    sql`select 1 as one from e2e_devices where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId}`,
  );
  if (!row) throw new AppError("notFound");
}

/** The new device asks to be linked: its tag (HMAC under the code it shows) is kept for E2E_LINK_TTL_MS. */
export async function requestLink(env: Env, member: Member, deviceId: string, tag: string): Promise<E2eLinkStarted> {
  const expiresAt = Date.now() + E2E_LINK_TTL_MS;
  const done = await getDb(env).run(
    sql`update e2e_devices set link_tag = ${tag}, link_expires_at = ${expiresAt} where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId}`,
  );
  if (!done.meta.changes) throw new AppError("notFound");
  return { deviceId, expiresAt: new Date(expiresAt).toISOString() };
}

/** The caller's devices waiting to be linked (unexpired tags), with the keys the tag covers. */
export async function pendingLinks(env: Env, member: Member): Promise<E2eLinkRequest[]> {
  const results = await getDb(env).all<Omit<E2eLinkRequest, "dateAdd" | "expiresAt"> & { createdAt: number; expiresAt: number }>(
    sql`select device_id as deviceId, name, encryption_key as encryptionKey, signing_key as signingKey, created_at as createdAt, link_tag as tag, link_expires_at as expiresAt
     from e2e_devices where member_id = ${member.memberId} and project_code = ${member.projectCode} and link_tag is not null and link_expires_at > ${Date.now()}
     order by created_at desc limit 10`,
  );
  return results.map(({ createdAt, expiresAt, ...rest }) => ({ ...rest, dateAdd: new Date(createdAt).toISOString(), expiresAt: new Date(expiresAt).toISOString() }));
}

/** Ends a link request (done or abandoned): the tag is one-time. */
export async function endLink(env: Env, member: Member, deviceId: string) {
  await requireOwnDevice(env, member, deviceId);
  await getDb(env).run(
    sql`update e2e_devices set link_tag = null, link_expires_at = null where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId}`,
  );
  return { deviceId };
}

/**
 * The message keys wrapped for one of the caller's devices, newest first: from the messages it holds keys of
 * (`deviceKeys[memberNo][deviceId]`) and from keys re-wrapped for it when it was linked itself.
 */
export async function sourceKeys(env: Env, member: Member, deviceId: string, before?: number): Promise<E2eWrappedKey[]> {
  await requireOwnDevice(env, member, deviceId);
  const path = `$.deviceKeys."${member.memberNo}"."${deviceId}"`;
  const below = before ?? Number.MAX_SAFE_INTEGER;
  const results = await getDb(env).all<E2eWrappedKey>(
    sql`select idChatroomMessage, wrappedKey from (
       select id_chatroom_message as idChatroomMessage, json_extract(payload, ${path}) as wrappedKey from chat_messages
       where project_code = ${member.projectCode} and ${heldByMember(member)} and deleted = 0 and id_chatroom_message < ${below}
         and json_extract(payload, '$.type') = 'encrypted' and json_extract(payload, ${path}) is not null
       union all
       select id_chatroom_message, wrapped_key from e2e_link_keys
       where member_id = ${member.memberId} and project_code = ${member.projectCode} and device_id = ${deviceId} and id_chatroom_message < ${below}
     ) order by idChatroomMessage desc limit ${E2E_LINK_PAGE}`,
  );
  return results.filter((r) => typeof r.wrappedKey === "string");
}

/** Chat messages' keys for linked devices: only messages the caller holds keys of (any other id is skipped). */
const MESSAGE_KEYS: LinkedKeyKind = {
  table: "e2e_link_keys",
  idColumn: "id_chatroom_message",
  holds: (owner, id) => sql`exists (select 1 from chat_messages where id_chatroom_message = ${id} and project_code = ${owner.projectCode} and ${heldByMember(owner)})`,
};

/** Stores keys re-wrapped for one of the caller's devices (linked-key-store.ts: bounded, first upload kept). */
export async function storeLinkedKeys(env: Env, member: Member, deviceId: string, keys: E2eWrappedKey[]): Promise<E2eKeysStored> {
  await requireOwnDevice(env, member, deviceId);
  return storeLinked(env, member, deviceId, MESSAGE_KEYS, keys.map((k) => ({ id: k.idChatroomMessage, wrappedKey: k.wrappedKey })));
}

/** The keys re-wrapped for one of the caller's devices, newest first (the device reads them to open older messages). */
export async function linkedKeys(env: Env, member: Member, deviceId: string, before?: number): Promise<E2eWrappedKey[]> {
  await requireOwnDevice(env, member, deviceId);
  const keys = await linkedKeysOf(env, member, deviceId, MESSAGE_KEYS, before);
  return keys.map((k) => ({ idChatroomMessage: k.id, wrappedKey: k.wrappedKey }));
}

/** Owner-only routes (README Decisions "Linking a second device"). */
export const e2eLinkPrivate = new Hono<AppEnv>()
  .get("/sns/e2e-links", async (c) => c.json(ok(await pendingLinks(c.env, c.get("member")))))
  .put("/sns/e2e-links/:deviceId", validate("json", E2eLinkRequestBody), async (c) =>
    c.json(ok(await requestLink(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("json").tag))),
  )
  .delete("/sns/e2e-links/:deviceId", async (c) => c.json(ok(await endLink(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId"))))))
  .get("/sns/e2e-devices/:deviceId/message-keys", validate("query", E2eKeysQuery), async (c) =>
    c.json(ok(await sourceKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("query").before))),
  )
  .get("/sns/e2e-devices/:deviceId/linked-keys", validate("query", E2eKeysQuery), async (c) =>
    c.json(ok(await linkedKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("query").before))),
  )
  .post("/sns/e2e-devices/:deviceId/linked-keys", validate("json", E2eLinkedKeysBody), async (c) =>
    c.json(ok(await storeLinkedKeys(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId")), c.req.valid("json").keys))),
  );
