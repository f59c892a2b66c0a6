import { E2E_LINKED_KEYS_PAGE, E2E_MAX_LINKED_KEYS } from "../../../worker/contract/e2e-link.constants";
import { isOk } from "../../../worker/contract/envelope";
import * as e2e from "../../api/e2e-api";

/** What a re-wrapped key opens: a chat message (one-to-one or a private reply) or a private thread reply. */
export type LinkedKind = "message" | "thread";

/** Each kind's list of keys re-wrapped for a device, as (id, wrapped key) pairs, newest first. */
const LISTS: Record<LinkedKind, (deviceId: string, before?: number) => Promise<{ id: number; wrappedKey: string }[] | null>> = {
  message: async (deviceId, before) => {
    const body = await e2e.linkedKeys(deviceId, before);
    return isOk(body) ? body.info.map((k) => ({ id: k.idChatroomMessage, wrappedKey: k.wrappedKey })) : null;
  },
  thread: async (deviceId, before) => {
    const body = await e2e.linkedThreadKeys(deviceId, before);
    return isOk(body) ? body.info.map((k) => ({ id: k.idChatMessageThread, wrappedKey: k.wrappedKey })) : null;
  },
};

/**
 * The older keys another of the member's devices re-wrapped for this one when linking it (device-link.ts;
 * README Decisions "Linking a second device"). Read once per page load (briefly cached; a miss reads again after a
 * while), so a device linked while a page is open reads its history on the next look.
 */
const TTL = 30_000;
const cache = new Map<string, { at: number; keys: Promise<Map<number, string>> }>();

async function readAll(kind: LinkedKind, deviceId: string) {
  const keys = new Map<number, string>();
  let before: number | undefined;
  while (keys.size < E2E_MAX_LINKED_KEYS) {
    const page = await LISTS[kind](deviceId, before);
    if (!page) break;
    for (const k of page) keys.set(k.id, k.wrappedKey);
    if (page.length < E2E_LINKED_KEYS_PAGE) break;
    before = page[page.length - 1]!.id;
  }
  return keys;
}

/** The key re-wrapped for this device for the stored message or thread reply `id`, or null. */
export async function linkedKeyFor(memberId: string, deviceId: string, kind: LinkedKind, id: number): Promise<string | null> {
  const key = `${memberId}:${deviceId}:${kind}`;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > TTL) {
    entry = { at: Date.now(), keys: readAll(kind, deviceId).catch(() => new Map()) };
    cache.set(key, entry);
  }
  return (await entry.keys).get(id) ?? null;
}
