// No imports: also used by the demo seed (a plain Node module).

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer | Uint8Array) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (value: string) => new Uint8Array((value.match(/../g) ?? []).map((h) => parseInt(h, 16)));

/**
 * The scramble seed is needed again whenever the owner uploads or a grantee views without the key, but the
 * key itself is kept only as a PBKDF2 hash. So the seed is sealed with AES-GCM under a key derived (HKDF) from
 * the server secret: a database leak alone reveals neither the key nor the seed.
 */
async function sealingKey(secret: string) {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("velvet-album-seed"), info: encoder.encode("aes-256-gcm") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function sealSeed(secret: string, seed: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(secret), seed as Uint8Array<ArrayBuffer>);
  return `${hex(iv)}.${hex(sealed)}`;
}

export async function openSeed(secret: string, sealed: string): Promise<Uint8Array> {
  const [iv, data] = sealed.split(".");
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: unhex(iv ?? "") }, await sealingKey(secret), unhex(data ?? "")));
}
