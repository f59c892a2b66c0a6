import type { Payload } from "../../../worker/contract/chat";
import { devicesOf, ECDSA, ensureLocalDevice, fromBase64, readLocalDevice, RSA, toBase64, type E2ePublicDevice, type LocalDevice } from "./device-keys";
import { noteSenderDevice } from "./key-watch";
import { type LinkedKind, linkedKeyFor } from "./linked-keys";
import { claimMessageId, isReplay, persistClaim } from "./replay-guard";

/**
 * §7 encrypted private messages, README Decisions "Verifiable end-to-end keys" (protocol in SECURITY.md). A message
 * gets a fresh AES-256-GCM key; that key is wrapped (RSA-OAEP/SHA-256) for every listed device of both members
 * (`deviceKeys`) and, for §7 clients, for each member's profile key (`keys`). The sending device signs (ECDSA P-256,
 * SHA-256) a canonical encoding of room, sender, device, iv, ciphertext and every wrapped key; a reader shows the
 * text only when that signature verifies against the sender's listed device.
 */
type EncryptedPayload = Extract<Payload, { type: "encrypted" }>;
type Recipient = { memberNo: string; publicKey: string | null; devices: E2ePublicDevice[] };

const sorted = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The exact bytes signed: a JSON array of strings and sorted pairs, so both sides build the same text. Its first
 * element is the version: v2 (the payload's `v: 2`) adds the sender's random message id and sending time; a payload
 * without `v` is read as v1 (messages signed before v2 keep verifying; a v2 signature never verifies as v1).
 */
export function signedBytes(payload: Omit<EncryptedPayload, "sig">, chatroomId: string, senderNo: string): Uint8Array<ArrayBuffer> {
  const devices = Object.entries(payload.deviceKeys ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([memberNo, wrapped]) => [memberNo, sorted(wrapped)]);
  const body = [payload.alg, payload.iv, payload.data, sorted(payload.keys), devices];
  const canonical =
    payload.v === 2
      ? ["velvet-e2e-sig-v2", chatroomId, senderNo, payload.senderDevice ?? "", payload.msgId ?? "", String(payload.sentAt ?? ""), ...body]
      : ["velvet-e2e-sig-v1", chatroomId, senderNo, payload.senderDevice ?? "", ...body];
  return new TextEncoder().encode(JSON.stringify(canonical));
}

/** How far a signed sending time may be from the server's stored time before the message counts as replayed. */
export const MAX_CLOCK_SKEW_MS = 10 * 60_000;
const randomId = () => toBase64(crypto.getRandomValues(new Uint8Array(16))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

async function wrapFor(aes: CryptoKey, spki: string) {
  const publicKey = await crypto.subtle.importKey("spki", fromBase64(spki), RSA, false, ["wrapKey"]);
  return toBase64(await crypto.subtle.wrapKey("raw", aes, publicKey, { name: "RSA-OAEP" }));
}

/** Encrypts and signs `text` from this browser's device for every device of `members` (sender and recipient). */
export async function encryptText(text: string, chatroomId: string, sender: { memberNo: string; device: LocalDevice }, members: Recipient[]): Promise<EncryptedPayload> {
  const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, new TextEncoder().encode(text));
  const keys: Record<string, string> = {};
  const deviceKeys: Record<string, Record<string, string>> = {};
  for (const member of members) {
    const wrapped: Record<string, string> = {};
    for (const device of member.devices) wrapped[device.deviceId] = await wrapFor(aes, device.encryptionKey);
    // Our own device is always included, even before the server lists it.
    if (member.memberNo === sender.memberNo && !wrapped[sender.device.deviceId]) wrapped[sender.device.deviceId] = await wrapFor(aes, sender.device.publicKey);
    deviceKeys[member.memberNo] = wrapped;
    // §7 `keys` only ever wraps for a key the safety number covers (a listed device), never a bare profile key.
    const listed = member.devices.find((d) => d.encryptionKey === member.publicKey) ?? member.devices[0];
    const legacy = listed?.encryptionKey ?? (member.memberNo === sender.memberNo ? sender.device.publicKey : null);
    if (legacy) keys[member.memberNo] = await wrapFor(aes, legacy);
  }
  const unsigned = {
    type: "encrypted" as const,
    alg: "RSA-OAEP-256+A256GCM" as const,
    iv: toBase64(iv),
    data: toBase64(data),
    keys,
    deviceKeys,
    senderDevice: sender.device.deviceId,
    v: 2 as const,
    msgId: randomId(),
    sentAt: Date.now(),
  };
  const sig = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, sender.device.signingPrivateKey, signedBytes(unsigned, chatroomId, sender.memberNo));
  return { ...unsigned, sig: toBase64(sig) };
}

/**
 * Does the signature verify against the sender's listed device? A device missing from the cached listing is looked
 * up again; a contact's device outside the key set this browser last saw is flagged (key-watch.ts), never passed
 * quietly.
 */
async function verified(payload: EncryptedPayload, chatroomId: string, senderNo: string, reader?: { memberId: string; memberNo: string }) {
  if (!payload.sig || !payload.senderDevice) return false;
  const find = async (fresh: boolean) => {
    const answer = await devicesOf(senderNo, { fresh });
    return { answer, device: answer?.devices.find((d) => d.deviceId === payload.senderDevice) };
  };
  let found = await find(false);
  if (!found.device) found = await find(true);
  const device = found.device;
  if (!device) return false;
  try {
    const key = await crypto.subtle.importKey("spki", fromBase64(device.signingKey), ECDSA, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromBase64(payload.sig), signedBytes(payload, chatroomId, senderNo));
    if (ok && reader && senderNo !== reader.memberNo) await noteSenderDevice(reader.memberId, senderNo, device, found.answer?.devices ?? []);
    return ok;
  } catch {
    return false;
  }
}

/** A stored envelope: a chat message (`idChatroomMessage`) or a private thread reply (`idChatMessageThread`), and its time. */
export type StoredRow = { kind: LinkedKind; id: number; dateAdd: string };

/** `notLinked`: this device was added after the message and holds no re-wrapped key for it (device-link.ts). */
export type Decrypted = { status: "ok"; text: string } | { status: "unverified" } | { status: "unavailable"; reason?: "notLinked" };

/**
 * The plaintext when the sender's signature verifies and this browser holds a key for it. An unsigned or forged
 * message is "unverified" (its text is never shown); no key here is "unavailable" (§8: logged, not shown).
 * `stored` is the row as the server keeps it (a chat message's or a thread reply's id, and its time): with it, a v2
 * message whose id another stored message in the room already carries, or whose signed time is more than 10 minutes
 * from the stored time, is "unverified" too (replayed or re-dated), and a device linked later finds its re-wrapped
 * key by the kind and id.
 */
export async function decryptPayload(
  payload: EncryptedPayload,
  chatroomId: string,
  senderNo: string,
  memberId: string,
  memberNo: string,
  stored?: StoredRow,
): Promise<Decrypted> {
  if (stored && payload.v === 2 && payload.msgId) claimMessageId(memberId, chatroomId, payload.msgId, stored.id);
  if (!(await verified(payload, chatroomId, senderNo, { memberId, memberNo }))) return { status: "unverified" };
  if (stored && payload.v === 2) {
    if (!payload.msgId || !payload.sentAt || Math.abs(payload.sentAt - Date.parse(stored.dateAdd)) > MAX_CLOCK_SKEW_MS) return { status: "unverified" };
    if (isReplay(memberId, chatroomId, payload.msgId, stored.id)) return { status: "unverified" };
    persistClaim(memberId, chatroomId);
  }
  // A message can render before this browser's device is made (a new browser opening history): wait for it, so the
  // reader learns the message predates the device instead of a bare "cannot decrypt".
  const device = await ensureLocalDevice(memberId).catch(() => readLocalDevice(memberId));
  let wrapped = (device?.deviceId && payload.deviceKeys?.[memberNo]?.[device.deviceId]) || undefined;
  // Written before this device existed: a key another of the member's devices re-wrapped for it when linking.
  if (!wrapped && device?.deviceId && stored && payload.deviceKeys?.[memberNo]) wrapped = (await linkedKeyFor(memberId, device.deviceId, stored.kind, stored.id)) ?? undefined;
  const notLinked = !wrapped && Boolean(device?.deviceId && payload.deviceKeys?.[memberNo]);
  wrapped ??= payload.keys[memberNo];
  if (!wrapped || !device?.privateKey) {
    console.info("chat: missing decryption key");
    return notLinked ? { status: "unavailable", reason: "notLinked" } : { status: "unavailable" };
  }
  try {
    const aes = await crypto.subtle.unwrapKey("raw", fromBase64(wrapped), device.privateKey, { name: "RSA-OAEP" }, { name: "AES-GCM" }, false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(payload.iv) }, aes, fromBase64(payload.data));
    return { status: "ok", text: new TextDecoder().decode(plain) };
  } catch {
    console.info("chat: missing decryption key");
    return notLinked ? { status: "unavailable", reason: "notLinked" } : { status: "unavailable" };
  }
}
