import { z } from "zod";
import { numeric } from "./common";
import { E2E_LINK_PAGE } from "./e2e-link.constants";
export * from "./e2e-link.constants";

/** PUT /private/sns/e2e-links/{deviceId}: HMAC-SHA-256 (base64, 32 bytes) over the device's keys (device-link.ts). */
export const E2eLinkRequestBody = z.object({ tag: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "tag must be a base64 HMAC-SHA-256") }).strict();

const WrappedKey = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/).max(2048);

/** POST /private/sns/e2e-devices/{deviceId}/linked-keys: older message keys re-wrapped for that device. */
export const E2eLinkedKeysBody = z
  .object({
    keys: z
      .array(z.object({ idChatroomMessage: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), wrappedKey: WrappedKey }).strict())
      .min(1)
      .max(E2E_LINK_PAGE),
  })
  .strict();

/** Paging for the key lists: entries with a smaller message id than `before`. */
export const E2eKeysQuery = z.object({ before: numeric().pipe(z.number().int().positive()).optional() });
