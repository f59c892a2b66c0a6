// No imports: also used by the demo seed (a plain Node module).

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer | Uint8Array) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (value: string) => new Uint8Array((value.match(/../g) ?? []).map((h) => parseInt(h, 16)));

/** Seeds sealed under SEAL_SECRET carry this prefix; older rows (JWT_SECRET, key-derived seed) have none. */
const SEAL_PREFIX = "s2.";
export const isCurrentSeal = (sealed: string) => sealed.startsWith(SEAL_PREFIX);

/**
 * A keyed album's scramble seed: 32 random bytes, chosen once per album. It is never derived from the secret
 * key, so a seed handed to a grantee or a key holder says nothing about the key (a short key cannot be
 * guessed offline from it), and two albums with the same key are scrambled differently.
 */
export function newScrambleSeed(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

/**
 * The seed is needed again whenever the owner uploads or a checked viewer opens the album, but the key is kept
 * only as a PBKDF2 hash. So it is sealed with AES-GCM under a key derived (HKDF) from SEAL_SECRET, a secret of
 * its own: a database leak alone reveals no seed, and rotating JWT_SECRET (tickets, tokens) leaves albums intact.
 */
async function sealingKey(secret: string, salt: string) {
  if (!secret) throw new Error("SEAL_SECRET is not set: keyed albums cannot be sealed or opened");
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode("aes-256-gcm") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

const CURRENT_SALT = "velvet-album-seed-sealed-v2";
const LEGACY_SALT = "velvet-album-seed";

export async function sealSeed(sealSecret: string, seed: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(sealSecret, CURRENT_SALT), seed as Uint8Array<ArrayBuffer>);
  return `${SEAL_PREFIX}${hex(iv)}.${hex(sealed)}`;
}

async function open(secret: string, salt: string, value: string): Promise<Uint8Array> {
  const [iv, data] = value.split(".");
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: unhex(iv ?? "") }, await sealingKey(secret, salt), unhex(data ?? "")));
}

export async function openSeed(sealSecret: string, sealed: string): Promise<Uint8Array> {
  if (!isCurrentSeal(sealed)) throw new Error("not a current seal: re-key the album first");
  return open(sealSecret, CURRENT_SALT, sealed.slice(SEAL_PREFIX.length));
}

/** Albums sealed before SEAL_SECRET existed: opened once with JWT_SECRET, then re-keyed (albums-legacy.ts). */
export async function openLegacySeed(jwtSecret: string, sealed: string): Promise<Uint8Array> {
  return open(jwtSecret, LEGACY_SALT, sealed);
}
