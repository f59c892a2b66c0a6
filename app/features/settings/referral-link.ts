/** The registration page reads this query parameter (and keeps it under the §3 `referralCode` local key). */
export const REFERRAL_PARAM = "referralCode";

/** A member's invitation: registration in their tenant with their code filled in (§7 referral sign-up). */
export const referralPath = (projectCode: string, code: string) => `/${projectCode}/registration?${REFERRAL_PARAM}=${encodeURIComponent(code)}`;
