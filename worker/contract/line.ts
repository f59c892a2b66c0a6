import { z } from "zod";
import type { SessionInfo } from "./session";

export * from "./line.constants";

/** POST …/authorize: where LINE sends the browser back. */
export const LineAuthorizeBody = z.object({ redirectUrl: z.string().trim().min(1).max(500) });
/** §7 LINE login and bind: the code LINE returned, the state it carried back, the same redirectUrl. */
export const LineCodeBody = z.object({
  code: z.string().trim().min(1).max(512),
  state: z.string().trim().min(16).max(128),
  redirectUrl: z.string().trim().min(1).max(500),
});
/** A new LINE user's registration: the same adult confirmation as the form (§1), required, never implied. */
export const LineSignUpBody = z.object({ adult: z.literal(true, { error: "Confirm that you are 18 or over" }) });

/** GET /public/core/line/{project}: whether LINE sign-in is offered (pages hide the buttons otherwise). */
export type LineAvailability = { enabled: boolean };
/** POST …/authorize: the LINE address to open. */
export type LineAuthorization = { authorizeUrl: string };
/** LINE login: a bound member gets a session; a LINE user new to this tenant confirms they are an adult first. */
export type LineLoginResult = SessionInfo | { needsRegistration: true };
/** GET /private/core/members/line/{memberId}: the owner's LINE binding. */
export type LineBinding = { enabled: boolean; bound: boolean; boundAt: string | null; hasPassword: boolean };
