import type { Payload } from "../../../worker/contract/chat";
import { api } from "../../lib/api";
import { backgroundApi } from "../../lib/realtime";

/**
 * §7 encrypted private messages. Each browser holds an RSA-OAEP key pair; the private key is a
 * non-extractable CryptoKey kept in IndexedDB (never leaves the browser), the public key is published on
 * the profile. A message gets a fresh AES-GCM key, wrapped for the recipient and for the sender.
 */
const DB_NAME = "velvet-keys";
const STORE = "keys";
type StoredKeys = { privateKey: CryptoKey; publicKey: string };
type EncryptedPayload = Extract<Payload, { type: "encrypted" }>;

const toBase64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function idb<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const request = run(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error);
  });
}

const RSA = { name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" } as const;

/** The member's key pair in this browser, created on first use. */
export async function ensureKeyPair(memberId: string): Promise<StoredKeys> {
  const existing = await idb<StoredKeys | undefined>("readonly", (s) => s.get(memberId));
  if (existing?.privateKey && existing.publicKey) return existing;
  const pair = (await crypto.subtle.generateKey(RSA, true, ["encrypt", "decrypt", "wrapKey", "unwrapKey"])) as CryptoKeyPair;
  const publicKey = toBase64(await crypto.subtle.exportKey("spki", pair.publicKey));
  // Re-import the private key as non-extractable before storing it.
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", pair.privateKey);
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, RSA, false, ["decrypt", "unwrapKey"]);
  const keys = { privateKey, publicKey };
  await idb("readwrite", (s) => s.put(keys, memberId));
  return keys;
}

/** Publishes this browser's public key on the profile when it is not the published one yet. */
export async function publishPublicKey(memberId: string) {
  const keys = await ensureKeyPair(memberId);
  const flag = `publishedKey:${memberId}`;
  if (localStorage.getItem(flag) === keys.publicKey.slice(-32)) return keys;
  const body = await backgroundApi(`/private/core/profiles/${memberId}`, { method: "PATCH", body: { publicKey: keys.publicKey } });
  if (body.returnCode === "000000") localStorage.setItem(flag, keys.publicKey.slice(-32));
  return keys;
}

/** A recipient's published key, or null (then the message goes as plain private text). */
export async function publicKeyOf(memberNo: string): Promise<string | null> {
  const body = await api<{ publicKey: string | null }>(`/private/sns/public-keys/${memberNo}`);
  return "info" in body ? body.info.publicKey : null;
}

export async function encryptText(text: string, recipients: Record<string, string>): Promise<EncryptedPayload> {
  const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, new TextEncoder().encode(text));
  const keys: Record<string, string> = {};
  for (const [memberNo, spki] of Object.entries(recipients)) {
    const publicKey = await crypto.subtle.importKey("spki", fromBase64(spki), RSA, false, ["wrapKey"]);
    keys[memberNo] = toBase64(await crypto.subtle.wrapKey("raw", aes, publicKey, { name: "RSA-OAEP" }));
  }
  return { type: "encrypted", alg: "RSA-OAEP-256+A256GCM", iv: toBase64(iv), data: toBase64(data), keys };
}

/** The plaintext, or null when this browser holds no key for it (§8: logged, not shown). */
export async function decryptPayload(payload: EncryptedPayload, memberId: string, memberNo: string): Promise<string | null> {
  const wrapped = payload.keys[memberNo];
  const keys = await idb<StoredKeys | undefined>("readonly", (s) => s.get(memberId)).catch(() => undefined);
  if (!wrapped || !keys) {
    console.info("chat: missing decryption key");
    return null;
  }
  try {
    const aes = await crypto.subtle.unwrapKey("raw", fromBase64(wrapped), keys.privateKey, { name: "RSA-OAEP" }, { name: "AES-GCM" }, false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(payload.iv) }, aes, fromBase64(payload.data));
    return new TextDecoder().decode(plain);
  } catch {
    console.info("chat: missing decryption key");
    return null;
  }
}
