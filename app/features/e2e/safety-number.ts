/**
 * Safety numbers (README Decisions "Verifiable end-to-end keys"; SECURITY.md). Pure WebCrypto, no state: both
 * members' browsers compute the same 60 digits from the same public keys, whoever is "me".
 */
export type DeviceKeys = { deviceId: string; encryptionKey: string; signingKey: string };

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const text = (value: string) => new TextEncoder().encode(value);

/**
 * A device's fingerprint: SHA-256 over its signing key and its encryption key (SPKI, base64, joined by a newline).
 * Both keys count: a server that swapped only the encryption key would read messages without touching signatures.
 */
export async function deviceFingerprint(device: Pick<DeviceKeys, "encryptionKey" | "signingKey">): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", text(`${device.signingKey}\n${device.encryptionKey}`)));
}

/** One member's key set: their device fingerprints, sorted (device order and ids do not matter). */
export async function keySet(devices: Pick<DeviceKeys, "encryptionKey" | "signingKey">[]): Promise<string[]> {
  return (await Promise.all(devices.map(deviceFingerprint))).sort();
}

/** A short stable id of a key set, what a browser remembers to notice a change. */
export async function keySetId(devices: Pick<DeviceKeys, "encryptionKey" | "signingKey">[]): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", text((await keySet(devices)).join(",")))).slice(0, 32);
}

/**
 * The conversation's safety number: SHA-512 over "velvet-safety-v1" and, for each member in ascending member-number
 * order, "memberNo:" and their sorted fingerprints; each of 12 groups is 5 bytes of the digest (big-endian) modulo
 * 100000, zero-padded to 5 digits. SHA-512 rather than SHA-256 so every group has its own 40 bits (60 bytes used).
 */
export async function safetyNumber(a: { memberNo: string; devices: DeviceKeys[] }, b: { memberNo: string; devices: DeviceKeys[] }): Promise<string[]> {
  const members = [a, b].sort((x, y) => (BigInt(x.memberNo) < BigInt(y.memberNo) ? -1 : BigInt(x.memberNo) > BigInt(y.memberNo) ? 1 : 0));
  const lines = await Promise.all(members.map(async (m) => `${m.memberNo}:${(await keySet(m.devices)).join(",")}`));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-512", text(["velvet-safety-v1", ...lines].join("\n"))));
  const groups: string[] = [];
  for (let i = 0; i < 12; i++) {
    let value = 0;
    for (let j = 0; j < 5; j++) value = value * 256 + digest[i * 5 + j]!;
    groups.push(String(value % 100_000).padStart(5, "0"));
  }
  return groups;
}
