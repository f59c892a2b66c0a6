/**
 * Zod-free part of ./e2e-link.ts: linking a member's new end-to-end device from one they already use (README
 * Decisions "Linking a second device"; SECURITY.md "End-to-end encrypted private messages").
 */

/** A link request (the new device's tag) is kept this long; the member types the code within it. */
export const E2E_LINK_TTL_MS = 10 * 60_000;
/** At most this many re-wrapped older message keys per device (the newest messages first). */
export const E2E_MAX_LINKED_KEYS = 5000;
/** Keys per upload and per page read. */
export const E2E_LINK_PAGE = 100;
export const E2E_LINKED_KEYS_PAGE = 500;

/** A device waiting to be linked, as its owner's other devices read it: keys, name, date and the HMAC tag. */
export type E2eLinkRequest = { deviceId: string; name: string; encryptionKey: string; signingKey: string; dateAdd: string; tag: string; expiresAt: string };

/** PUT /private/sns/e2e-links/{deviceId}: the request is kept until `expiresAt`. */
export type E2eLinkStarted = { deviceId: string; expiresAt: string };
/** POST /private/sns/e2e-devices/{deviceId}/linked-keys: how many of the keys were stored (others skipped). */
export type E2eKeysStored = { stored: number };

/** One message key wrapped (RSA-OAEP) for one device: from a message's `deviceKeys`, or re-wrapped when linking. */
export type E2eWrappedKey = { idChatroomMessage: number; wrappedKey: string };
/** A private thread reply's key wrapped for one device (the reply lives in `chat_threads`, not `chat_messages`). */
export type E2eWrappedThreadKey = { idChatMessageThread: number; wrappedKey: string };
