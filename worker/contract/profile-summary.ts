/**
 * The short profile every feature embeds (§3 `profile` on messages, guestbook entries, visitors, lists…).
 * Private fields (phone, mobile, address, email, safeword) never appear here.
 */
export type ProfileSummary = {
  idProfile: number;
  simpleCode: string;
  nickname: string;
  avator: string;
  qualify: boolean;
  blur: boolean;
  blocked: boolean;
  multiGender: number | null;
  lookFor: number;
  kycStatus: number;
  closed: boolean;
  isRainbow: boolean;
  lastAccess: string | null;
};
