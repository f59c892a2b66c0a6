/**
 * The member a verified session speaks for (what `requireMember` puts on the request and a socket ticket carries).
 * A type of its own below http/ and features/session, so both name it without importing each other.
 */
export type SessionMember = {
  memberId: string;
  memberNo: string;
  projectCode: string;
  sessionId: string;
  status: "active" | "suspended" | "deleted";
  kycStatus: number;
};
