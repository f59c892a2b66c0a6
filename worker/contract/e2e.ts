import { z } from "zod";
import { E2E_DEVICE_ID } from "./e2e.constants";
export * from "./e2e.constants";

const Base64 = /^[A-Za-z0-9+/]+={0,2}$/;
const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** True when `spki` (base64) imports as `algorithm` for `usages`: the server never stores a key a browser cannot use. */
async function imports(spki: string, algorithm: RsaHashedImportParams | EcKeyImportParams, usages: KeyUsage[]) {
  try {
    const key = await crypto.subtle.importKey("spki", bytesOf(spki), algorithm, true, usages);
    // RSA below 2048 bits is refused (NIST SP 800-131A).
    return !("modulusLength" in key.algorithm) || (key.algorithm as RsaHashedKeyAlgorithm).modulusLength >= 2048;
  } catch {
    return false;
  }
}

export const E2eDeviceIdParam = z.string().regex(E2E_DEVICE_ID, "Invalid device id");

/**
 * PUT /private/sns/e2e-devices/{deviceId}: registers (or re-registers) one of the caller's own devices. Both keys
 * are SPKI in base64 and must import: RSA-OAEP with SHA-256 (at least 2048 bits) and ECDSA on P-256.
 */
export const E2eDeviceBody = z
  .object({
    name: z.string().trim().min(1).max(60),
    encryptionKey: z
      .string()
      .max(1100)
      .regex(Base64)
      .refine((v) => imports(v, { name: "RSA-OAEP", hash: "SHA-256" }, ["encrypt"]), "must be an RSA-OAEP SHA-256 public key (SPKI, at least 2048 bits)"),
    signingKey: z
      .string()
      .max(200)
      .regex(Base64)
      .refine((v) => imports(v, { name: "ECDSA", namedCurve: "P-256" }, ["verify"]), "must be an ECDSA P-256 public key (SPKI)"),
  })
  .strict();
export type E2eDeviceInput = z.infer<typeof E2eDeviceBody>;
