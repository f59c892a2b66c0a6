import { E2E_LINKED_KEYS_PAGE, E2E_MAX_LINKED_KEYS, } from "../../../worker/contract/e2e-link.constants";
import { isOk } from "../../../worker/contract/envelope";
import * as e2e from "../../api/e2e-api";

/**
 * The older message keys another of the member's devices re-wrapped for this one when linking it (device-link.ts;
 * README Decisions "Linking a second device"). Read once per page load (briefly cached; a miss reads again after a
 * while), so a device linked while a page is open reads its history on the next look.
 */
const TTL = 30_000;
const cache = new Map<string, { at: number; keys: Promise<Map<number, string>> }>();

async function readAll(deviceId: string) {
  const keys = new Map<number, string>();
  let before: number | undefined;
  while (keys.size < E2E_MAX_LINKED_KEYS) {
    const body = await e2e.linkedKeys(deviceId, before);
    if (!isOk(body)) break;
    for (const k of body.info) keys.set(k.idChatroomMessage, k.wrappedKey);
    if (body.info.length < E2E_LINKED_KEYS_PAGE) break;
    before = body.info[body.info.length - 1]!.idChatroomMessage;
  }
  return keys;
}

/** The key re-wrapped for this device for stored message `idChatroomMessage`, or null. */
export async function linkedKeyFor(memberId: string, deviceId: string, idChatroomMessage: number): Promise<string | null> {
  const key = `${memberId}:${deviceId}`;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > TTL) {
    entry = { at: Date.now(), keys: readAll(deviceId).catch(() => new Map()) };
    cache.set(key, entry);
  }
  return (await entry.keys).get(idChatroomMessage) ?? null;
}
