import { Hono } from "hono";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { e2eDevices, e2eLinkKeys, e2eLinkThreadKeys } from "../../db/schema";
import { E2E_MAX_DEVICES, E2eDeviceBody, type E2eDeviceInput, type E2eOwnDevice, type E2ePublicDevice } from "../../contract/e2e";
import { ok } from "../../contract/envelope";
import { AppError } from "../../lib/app-error";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { deviceIdOf } from "./e2e-link";

/**
 * End-to-end encryption devices (README Decisions "Verifiable end-to-end keys"; SECURITY.md "End-to-end encrypted
 * private messages"). The server keeps each device's two public keys so others can wrap message keys for it and
 * verify its signatures; it never holds a private key and cannot read or sign a message.
 */
type DeviceRow = typeof e2eDevices.$inferSelect;
type Owner = { memberId: string; projectCode: string };

const publicView = (row: DeviceRow): E2ePublicDevice => ({
  deviceId: row.deviceId,
  encryptionKey: row.encryptionKey,
  signingKey: row.signingKey,
  dateAdd: new Date(row.createdAt).toISOString(),
});
const ownView = (row: DeviceRow): E2eOwnDevice => ({ ...publicView(row), name: row.name });

const rowsOf = (env: Env, member: Owner) =>
  getDb(env)
    .select()
    .from(e2eDevices)
    .where(and(eq(e2eDevices.memberId, member.memberId), eq(e2eDevices.projectCode, member.projectCode)))
    .orderBy(asc(e2eDevices.createdAt), asc(e2eDevices.idDevice))
    .limit(E2E_MAX_DEVICES);

/** A member's devices as another member sees them (keys and date; the name stays with its owner). */
export async function publicDevicesOf(env: Env, member: Owner): Promise<E2ePublicDevice[]> {
  return (await rowsOf(env, member)).map(publicView);
}

export async function ownDevices(env: Env, member: Owner): Promise<E2eOwnDevice[]> {
  return (await rowsOf(env, member)).map(ownView);
}

/**
 * Registers a device, or replaces the keys and name of one already registered under that id (a browser that lost
 * its listing re-registers with the same id, so messages it signed before stay verifiable). The count check and the
 * insert are one statement: two racing registrations cannot pass the bound together.
 */
export async function registerDevice(env: Env, member: Owner, deviceId: string, input: E2eDeviceInput): Promise<E2eOwnDevice> {
  // `insert … select … where` (the bound in the same statement) has no builder form: raw `sql` through `db.get`.
  const row = await getDb(env).get<DeviceRow>(
    sql`insert into e2e_devices (project_code, member_id, device_id, name, encryption_key, signing_key, created_at)
     select ${member.projectCode}, ${member.memberId}, ${deviceId}, ${input.name}, ${input.encryptionKey}, ${input.signingKey}, ${Date.now()}
     where (select count(*) from e2e_devices where member_id = ${member.memberId} and device_id != ${deviceId}) < ${E2E_MAX_DEVICES}
     on conflict (member_id, device_id) do update set name = excluded.name, encryption_key = excluded.encryption_key, signing_key = excluded.signing_key
     returning id_device as idDevice, project_code as projectCode, member_id as memberId, device_id as deviceId, name,
       encryption_key as encryptionKey, signing_key as signingKey, created_at as createdAt`,
  );
  if (!row) throw new AppError("e2eTooManyDevices");
  return ownView(row);
}

/** Removes one of the caller's own devices; another member's (or an unknown) id is not found. */
export async function removeDevice(env: Env, member: Owner, deviceId: string) {
  const removed = await getDb(env)
    .delete(e2eDevices)
    .where(and(eq(e2eDevices.memberId, member.memberId), eq(e2eDevices.projectCode, member.projectCode), eq(e2eDevices.deviceId, deviceId)))
    .returning({ deviceId: e2eDevices.deviceId });
  if (!removed.length) throw new AppError("notFound");
  // Older message and thread reply keys re-wrapped for it when it was linked go with it (README Decisions "Linking a second device").
  const db = getDb(env);
  await db.batch([
    db.delete(e2eLinkKeys).where(and(eq(e2eLinkKeys.memberId, member.memberId), eq(e2eLinkKeys.deviceId, deviceId))),
    db.delete(e2eLinkThreadKeys).where(and(eq(e2eLinkThreadKeys.memberId, member.memberId), eq(e2eLinkThreadKeys.deviceId, deviceId))),
  ]);
  return { deviceId };
}


/** Owner-only: every route acts on the session's own member; there is no path to anyone else's devices. */
export const e2eDevicesPrivate = new Hono<AppEnv>()
  .get("/sns/e2e-devices", async (c) => c.json(ok(await ownDevices(c.env, c.get("member")))))
  .put("/sns/e2e-devices/:deviceId", validate("json", E2eDeviceBody), async (c) => {
    const deviceId = deviceIdOf(c.req.param("deviceId"));
    return c.json(ok(await registerDevice(c.env, c.get("member"), deviceId, c.req.valid("json"))));
  })
  .delete("/sns/e2e-devices/:deviceId", async (c) => c.json(ok(await removeDevice(c.env, c.get("member"), deviceIdOf(c.req.param("deviceId"))))));
