import { randomString } from "./crypto";

/** Private account id used in private paths and X-Member-ID. */
export const newMemberId = () => `m${randomString(23)}`;
export const newSessionId = () => `s${randomString(23)}`;
/** §9: the session token is 32 characters. */
export const newSessionToken = () => randomString(32);
/** Public member number (profile simpleCode): eight digits, no leading zero. */
export const newMemberNo = () => randomString(1, "123456789") + randomString(7, "0123456789");
export const newReferralCode = () => randomString(8, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");

/**
 * What a deleted account's profile carries instead of its member number: never a valid member number (digits only),
 * so every lookup by number misses it, and random, so it tells nothing of the member. The number itself stays
 * reserved in `members` and is never handed out again.
 */
export const DELETED_CODE_PREFIX = "deleted-";
export const newDeletedCode = () => `${DELETED_CODE_PREFIX}${randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789")}`;
export const isDeletedCode = (code: string) => code.startsWith(DELETED_CODE_PREFIX);
