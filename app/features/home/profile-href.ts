/** A public profile page of a member (§2: the code comes from query c). */
export const profileHref = (projectCode: string, simpleCode: string) => `/${projectCode}/s?c=${encodeURIComponent(simpleCode)}`;
