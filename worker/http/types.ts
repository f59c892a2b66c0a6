import type { SessionMember } from "../lib/session-member";

/** The env type declared once for every Hono app and sub-app. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by `requireSession` on private routes. */
    member: SessionMember;
    /** Set by the page security headers for React Router's inline scripts. */
    secureHeadersNonce?: string;
  };
};
