import type { E2eOwnDevice, E2ePublicDevice, PublicKeysAnswer } from "../../../worker/contract/e2e.constants";
import { isOk } from "../../../worker/contract/envelope";
import * as e2e from "../../api/e2e-api";
import { backgroundApi } from "../../lib/realtime";
import { REREGISTERED_FLAG } from "./e2e-names";

/**
 * This browser's end-to-end device (README Decisions "Verifiable end-to-end keys"; SECURITY.md). Two key pairs made
 * by WebCrypto: RSA-OAEP-2048/SHA-256 that message keys are wrapped for, and ECDSA P-256 that signs what this device
 * sends. Both private keys are non-extractable CryptoKeys kept in IndexedDB: script can use them, nothing can read
 * them out, and they never leave the browser. The server lists the public halves per device.
 */
const DB_NAME = "velvet-keys";
const STORE = "keys";
export const RSA = { name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" } as const;
export const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;

/** What IndexedDB keeps per member in this browser. `publicKey`/`privateKey` are the §7 names of the RSA pair. */
export type LocalDevice = {
  deviceId: string;
  privateKey: CryptoKey;
  publicKey: string;
  signingPrivateKey: CryptoKey;
  signingKey: string;
};

export const toBase64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

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

export const readLocalDevice = (memberId: string) => idb<Partial<LocalDevice> | undefined>("readonly", (s) => s.get(memberId)).catch(() => undefined);

const complete = (d: Partial<LocalDevice> | undefined): d is LocalDevice => Boolean(d?.deviceId && d.privateKey && d.publicKey && d.signingPrivateKey && d.signingKey);

const creating = new Map<string, Promise<LocalDevice>>();
/**
 * The member's device in this browser, made on first use. A browser that already held a §7 RSA key keeps it (its
 * old messages stay readable) and gains a signing key and a device id.
 */
export function ensureLocalDevice(memberId: string): Promise<LocalDevice> {
  const running = creating.get(memberId);
  if (running) return running;
  const made = (async () => {
    const existing = await readLocalDevice(memberId);
    if (complete(existing)) return existing;
    let rsa: { privateKey: CryptoKey; publicKey: string };
    if (existing?.privateKey && existing.publicKey) rsa = { privateKey: existing.privateKey, publicKey: existing.publicKey };
    else {
      const pair = (await crypto.subtle.generateKey(RSA, false, ["encrypt", "decrypt", "wrapKey", "unwrapKey"])) as CryptoKeyPair;
      rsa = { privateKey: pair.privateKey, publicKey: toBase64(await crypto.subtle.exportKey("spki", pair.publicKey)) };
    }
    const signing = (await crypto.subtle.generateKey(ECDSA, false, ["sign", "verify"])) as CryptoKeyPair;
    const device: LocalDevice = {
      deviceId: toBase64(crypto.getRandomValues(new Uint8Array(16))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
      ...rsa,
      signingPrivateKey: signing.privateKey,
      signingKey: toBase64(await crypto.subtle.exportKey("spki", signing.publicKey)),
    };
    await idb("readwrite", (s) => s.put(device, memberId));
    return device;
  })();
  creating.set(memberId, made);
  made.catch(() => creating.delete(memberId));
  return made;
}

/** A readable device name from the user agent ("Chrome on Android"); the member can rename it in Settings. */
export function deviceNameFromAgent(agent = navigator.userAgent): string {
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrome\/|Chromium\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "Browser";
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad|iPod/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows" : /Mac OS X|Macintosh/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} · ${system}` : browser;
}

const registeredFlag = (memberId: string) => `e2eDevice:${memberId}`;

export type DeviceCheck = { device: LocalDevice; registered: boolean; reregistered: boolean; failure?: { returnCode: string; returnMessage: string } };

const checks = new Map<string, Promise<DeviceCheck>>();
/**
 * Makes sure the server lists this browser's device with exactly its keys; registers it again if not (someone
 * removed or replaced it). Also keeps the §7 profile `publicKey` on this device's encryption key. Once per page load
 * unless `fresh`.
 */
export function ensureDeviceRegistered(memberId: string, options: { fresh?: boolean } = {}): Promise<DeviceCheck> {
  const running = checks.get(memberId);
  if (running && !options.fresh) return running;
  const check = (async (): Promise<DeviceCheck> => {
    const device = await ensureLocalDevice(memberId);
    const listed = await backgroundApi<E2eOwnDevice[]>("/private/sns/e2e-devices");
    if (!isOk(listed)) return { device, registered: false, reregistered: false, failure: listed };
    const mine = listed.info.find((d) => d.deviceId === device.deviceId);
    let reregistered = false;
    if (!mine || mine.encryptionKey !== device.publicKey || mine.signingKey !== device.signingKey) {
      const name = mine?.name ?? deviceNameFromAgent();
      const body = await backgroundApi<E2eOwnDevice>(`/private/sns/e2e-devices/${device.deviceId}`, { method: "PUT", body: { name, encryptionKey: device.publicKey, signingKey: device.signingKey } });
      if (!isOk(body)) return { device, registered: false, reregistered: false, failure: body };
      // Registered before from this browser, so the listing was removed or replaced behind its back.
      reregistered = localStorage.getItem(registeredFlag(memberId)) === device.deviceId;
      if (reregistered) sessionStorage.setItem(REREGISTERED_FLAG, "true");
      localStorage.setItem(registeredFlag(memberId), device.deviceId);
    }
    await publishProfileKey(memberId, device.publicKey);
    return { device, registered: true, reregistered };
  })();
  checks.set(memberId, check);
  check.catch(() => checks.delete(memberId));
  return check;
}

/** §7: the profile's `publicKey` stays this browser's encryption key (older clients wrap for it). */
async function publishProfileKey(memberId: string, publicKey: string) {
  const flag = `publishedKey:${memberId}`;
  if (localStorage.getItem(flag) === publicKey.slice(-32)) return;
  const body = await backgroundApi(`/private/core/profiles/${memberId}`, { method: "PATCH", body: { publicKey } });
  if (body.returnCode === "000000") localStorage.setItem(flag, publicKey.slice(-32));
}

const MEMBER_KEYS_TTL = 30_000;
const memberKeys = new Map<string, { at: number; answer: Promise<PublicKeysAnswer | null> }>();
/** A member's listed devices (cached briefly; `fresh` reads again), or null when the lookup failed. */
export function devicesOf(memberNo: string, options: { fresh?: boolean } = {}): Promise<PublicKeysAnswer | null> {
  const cached = memberKeys.get(memberNo);
  if (cached && !options.fresh && Date.now() - cached.at < MEMBER_KEYS_TTL) return cached.answer;
  const answer = e2e.publicKeys(memberNo).then((body) => (isOk(body) ? { ...body.info, devices: body.info.devices ?? [] } : null)).catch(() => null);
  memberKeys.set(memberNo, { at: Date.now(), answer });
  return answer;
}

export type { E2ePublicDevice };
