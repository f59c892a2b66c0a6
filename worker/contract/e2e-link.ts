import { z } from "zod";
import { numeric } from "./common";
import { E2E_LINK_PAGE } from "./e2e-link.constants";
export * from "./e2e-link.constants";

/** PUT /private/sns/e2e-links/{deviceId}: HMAC-SHA-256 (base64, 32 bytes) over the device's keys (device-link.ts). */
export const E2eLinkRequestBody = z.object({ tag: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "tag must be a base64 HMAC-SHA-256") }).strict();

const WrappedKey = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/).max(2048);

const RowId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A page of re-wrapped keys, each named by the row it opens (`id`: that row's id field). */
const linkedKeysBody = <Id extends z.ZodRawShape>(id: Id) =>
  z.object({ keys: z.array(z.object({ ...id, wrappedKey: WrappedKey }).strict()).min(1).max(E2E_LINK_PAGE) }).strict();

/** POST /private/sns/e2e-devices/{deviceId}/linked-keys: older message keys re-wrapped for that device. */
export const E2eLinkedKeysBody = linkedKeysBody({ idChatroomMessage: RowId });

/** POST /private/sns/e2e-devices/{deviceId}/linked-thread-keys: older private thread replies' keys re-wrapped for it. */
export const E2eLinkedThreadKeysBody = linkedKeysBody({ idChatMessageThread: RowId });

/** Paging for the key lists: entries with a smaller message (or thread reply) id than `before`. */
export const E2eKeysQuery = z.object({ before: numeric().pipe(z.number().int().positive()).optional() });
