import { randomString } from "./crypto";

/** Private account id used in private paths and X-Member-ID. */
export const newMemberId = () => `m${randomString(23)}`;
export const newSessionId = () => `s${randomString(23)}`;
/** §9: the session token is 32 characters. */
export const newSessionToken = () => randomString(32);
/** Public member number (profile simpleCode): eight digits, no leading zero. */
export const newMemberNo = () => randomString(1, "123456789") + randomString(7, "0123456789");
export const newReferralCode = () => randomString(8, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
