import { E2E_LINK_PAGE, E2E_MAX_LINKED_KEYS, type E2eKeysStored, type E2eLinkRequest, type E2eWrappedKey, type E2eWrappedThreadKey } from "../../../worker/contract/e2e-link.constants";
import { type Envelope, isOk } from "../../../worker/contract/envelope";
import * as e2e from "../../api/e2e-api";
import { ensureDeviceRegistered, fromBase64, RSA, toBase64 } from "./device-keys";
import { acknowledgeOwnDevice } from "./own-devices";

/**
 * Linking a member's new device from one they already use (README Decisions "Linking a second device"; SECURITY.md).
 *
 * 1. The new device makes a one-time code (16 Crockford base32 characters, 80 random bits) and shows it; it posts
 *    only a tag: HMAC-SHA-256 over ["velvet-link-v1", memberNo, deviceId, encryptionKey, signingKey] under a key
 *    HKDF-SHA-256 derives from the code. The code never leaves that screen.
 * 2. On a device the member already uses, they type the code. That device recomputes the tag over each waiting
 *    device's listed keys; only a match is linked, so a server that swapped the new device's keys (or listed one of
 *    its own) fails the check: it would need the code.
 * 3. The old device unwraps each older key it holds, of chat messages and then of private thread replies (RSA-OAEP,
 *    its non-extractable private key), and wraps it again for the new device's encryption key; only those wrapped
 *    keys are uploaded. The AES message key exists only inside WebCrypto for that moment; no private key is ever
 *    exported.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 16;

export function newLinkCode() {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
  // 256 is a multiple of 32: each byte modulo 32 is uniform.
  return [...bytes].map((b) => ALPHABET[b % 32]).join("");
}

/** "abcd efgh-…" → the 16 code characters (Crockford: O is 0, I and L are 1); null when it cannot be a code. */
export function normalizeCode(input: string) {
  const code = input.toUpperCase().replace(/[^0-9A-Z]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

export const formatCode = (code: string) => code.match(/.{1,4}/g)?.join("-") ?? code;

type Keys = { deviceId: string; encryptionKey: string; signingKey: string };

/** The tag over a device's keys under a key derived from the code. */
export async function linkTag(code: string, memberNo: string, device: Keys) {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(code), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("velvet-link-v1"), info: new TextEncoder().encode(device.deviceId) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  const data = new TextEncoder().encode(JSON.stringify(["velvet-link-v1", memberNo, device.deviceId, device.encryptionKey, device.signingKey]));
  return toBase64(await crypto.subtle.sign("HMAC", key, data));
}

/** On the new device: a fresh code to show, and the tag posted for this device's keys. */
export async function startLinking(memberId: string, memberNo: string) {
  const { device } = await ensureDeviceRegistered(memberId, { fresh: true });
  const code = newLinkCode();
  const tag = await linkTag(code, memberNo, { deviceId: device.deviceId, encryptionKey: device.publicKey, signingKey: device.signingKey });
  const body = await e2e.requestLink(device.deviceId, tag);
  if (!isOk(body)) throw body;
  return { code, expiresAt: body.info.expiresAt };
}

export class LinkError extends Error {}

/** One kind of older key this device holds: how to read its pages, where to store re-wrapped ones, and its id. */
type KeyList<K extends { wrappedKey: string }> = {
  page: (deviceId: string, before?: number) => Promise<Envelope<K[]>>;
  store: (deviceId: string, keys: K[]) => Promise<Envelope<E2eKeysStored>>;
  id: (key: K) => number;
};
const MESSAGE_KEYS: KeyList<E2eWrappedKey> = { page: e2e.messageKeys, store: e2e.storeLinkedKeys, id: (k) => k.idChatroomMessage };
const THREAD_KEYS: KeyList<E2eWrappedThreadKey> = { page: e2e.threadKeys, store: e2e.storeLinkedThreadKeys, id: (k) => k.idChatMessageThread };

/** Re-wraps every key of one list this device holds for the target device's key and uploads them; returns how many. */
async function rewrapAll<K extends { wrappedKey: string }>(
  list: KeyList<K>,
  me: { deviceId: string; privateKey: CryptoKey },
  targetId: string,
  wrapFor: CryptoKey,
  onProgress?: (done: number) => void,
) {
  let done = 0;
  let before: number | undefined;
  while (done < E2E_MAX_LINKED_KEYS) {
    const page = await list.page(me.deviceId, before);
    if (!isOk(page)) throw page;
    const rewrapped: K[] = [];
    for (const entry of page.info.slice(0, E2E_MAX_LINKED_KEYS - done)) {
      try {
        // Extractable only so it can be wrapped again, and only inside WebCrypto: script never reads its bytes.
        const aes = await crypto.subtle.unwrapKey("raw", fromBase64(entry.wrappedKey), me.privateKey, { name: "RSA-OAEP" }, { name: "AES-GCM" }, true, ["decrypt"]);
        rewrapped.push({ ...entry, wrappedKey: toBase64(await crypto.subtle.wrapKey("raw", aes, wrapFor, { name: "RSA-OAEP" })) });
      } catch {
        // Wrapped for keys this device no longer has (re-registered): nothing to pass on.
      }
    }
    if (rewrapped.length) {
      const stored = await list.store(targetId, rewrapped);
      if (!isOk(stored)) throw stored;
    }
    done += rewrapped.length;
    onProgress?.(done);
    if (page.info.length < E2E_LINK_PAGE) break;
    before = list.id(page.info[page.info.length - 1]!);
  }
  return done;
}

/**
 * On a device the member already uses: finds the waiting device whose tag the code reproduces, re-wraps every older
 * message and thread reply key this device holds for it, uploads them and ends the request. Returns the device and
 * how many keys.
 */
export async function linkWithCode(memberId: string, memberNo: string, input: string, onProgress?: (done: number) => void) {
  const code = normalizeCode(input);
  if (!code) throw new LinkError("badCode");
  const { device: me } = await ensureDeviceRegistered(memberId);
  const pending = await e2e.linkRequests();
  if (!isOk(pending)) throw pending;
  let target: E2eLinkRequest | undefined;
  for (const request of pending.info) {
    if (request.deviceId === me.deviceId) continue;
    if ((await linkTag(code, memberNo, request)) === request.tag) target = request;
  }
  if (!target) throw new LinkError("noMatch");
  const wrapFor = await crypto.subtle.importKey("spki", fromBase64(target.encryptionKey), RSA, false, ["wrapKey"]);

  // Chat messages first (one-to-one rooms and private replies), then private thread replies: each list has its own
  // store on the server and its own E2E_MAX_LINKED_KEYS bound.
  const messages = await rewrapAll(MESSAGE_KEYS, me, target.deviceId, wrapFor, onProgress);
  const threads = await rewrapAll(THREAD_KEYS, me, target.deviceId, wrapFor, (n) => onProgress?.(messages + n));
  const done = messages + threads;
  await e2e.endLink(target.deviceId);
  // The member linked it here: it is theirs, so no "new device" notice for it in this browser.
  await acknowledgeOwnDevice(memberId, target);
  return { name: target.name, count: done };
}
