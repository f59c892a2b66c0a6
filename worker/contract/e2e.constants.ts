/** Zod-free part of ./e2e.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/** At most this many devices (browsers) per member hold end-to-end keys; a message is wrapped for each of them. */
export const E2E_MAX_DEVICES = 10;

/** A device id as the browser picks it: 16 random bytes in base64url, unpadded (22 characters). */
export const E2E_DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** One of the caller's own devices (owner-only list: the name is never shown to anyone else). */
export type E2eOwnDevice = { deviceId: string; name: string; encryptionKey: string; signingKey: string; dateAdd: string };

/** A device as other members see it in `GET /private/sns/public-keys/{memberNo}`: keys and date, no name. */
export type E2ePublicDevice = { deviceId: string; encryptionKey: string; signingKey: string; dateAdd: string };

/** `GET /private/sns/public-keys/{memberNo}`: §7 `publicKey` kept, plus every registered device. */
export type PublicKeysAnswer = { memberNo: string; publicKey: string | null; devices: E2ePublicDevice[] };
