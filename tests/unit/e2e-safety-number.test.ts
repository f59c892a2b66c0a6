import { describe, expect, it } from "vitest";
import { deviceFingerprint, keySetId, safetyNumber, type DeviceKeys } from "../../app/features/e2e/safety-number";

/** README Decisions "Verifiable end-to-end keys": both members' browsers must show the same 12 groups of 5 digits. */
const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
async function device(id: string): Promise<DeviceKeys> {
  const ec = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const ecdh = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  // The encryption key's kind does not matter to the number: any SPKI stands in for RSA here (faster).
  return { deviceId: id, signingKey: b64((await crypto.subtle.exportKey("spki", ec.publicKey)) as ArrayBuffer), encryptionKey: b64((await crypto.subtle.exportKey("spki", ecdh.publicKey)) as ArrayBuffer) };
}

describe("safety number", () => {
  it("is 12 groups of 5 digits, the same on both sides and whatever the device order", async () => {
    const [a1, a2, b1] = [await device("a1"), await device("a2"), await device("b1")];
    const seenByA = await safetyNumber({ memberNo: "9", devices: [a1, a2] }, { memberNo: "10", devices: [b1] });
    const seenByB = await safetyNumber({ memberNo: "10", devices: [b1] }, { memberNo: "9", devices: [a2, a1] });
    expect(seenByA).toHaveLength(12);
    for (const group of seenByA) expect(group).toMatch(/^\d{5}$/);
    expect(seenByB).toEqual(seenByA);
  });

  it("changes when any device's signing or encryption key changes, or a device is added", async () => {
    const [a1, b1, other] = [await device("a1"), await device("b1"), await device("x")];
    const base = await safetyNumber({ memberNo: "1", devices: [a1] }, { memberNo: "2", devices: [b1] });
    const swappedSigning = await safetyNumber({ memberNo: "1", devices: [a1] }, { memberNo: "2", devices: [{ ...b1, signingKey: other.signingKey }] });
    const swappedEncryption = await safetyNumber({ memberNo: "1", devices: [a1] }, { memberNo: "2", devices: [{ ...b1, encryptionKey: other.encryptionKey }] });
    const added = await safetyNumber({ memberNo: "1", devices: [a1] }, { memberNo: "2", devices: [b1, other] });
    for (const changed of [swappedSigning, swappedEncryption, added]) expect(changed).not.toEqual(base);
    expect(await keySetId([b1])).not.toBe(await keySetId([{ ...b1, encryptionKey: other.encryptionKey }]));
    expect(await keySetId([b1, other])).toBe(await keySetId([other, b1]));
    expect(await deviceFingerprint(b1)).toMatch(/^[0-9a-f]{64}$/);
  });
});
