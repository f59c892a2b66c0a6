import type { LineAuthorization, LineAvailability, LineBinding, LineLoginResult } from "../../worker/contract/line";
import type { SessionInfo } from "../../worker/contract/session";
import { api } from "../lib/api";

/** The LINE endpoints (README Decisions "LINE login"), each with its path, method and answer type written once. */

const member = (memberId: string) => encodeURIComponent(memberId);
type LineCode = { code: string; state: string; redirectUrl: string };

export const lineAvailability = (projectCode: string) => api<LineAvailability>(`/public/core/line/${projectCode.toUpperCase()}`);
/** Start at LINE: a signed-in member binds their account, anyone else signs in. */
export const authorizeLine = (projectCode: string, redirectUrl: string, bindMemberId?: string) =>
  api<LineAuthorization>(
    bindMemberId ? `/private/core/members/line/${member(bindMemberId)}/authorize` : `/public/core/line/${projectCode.toUpperCase()}/authorize`,
    { body: { redirectUrl } },
  );
export const lineSignIn = (projectCode: string, body: LineCode) => api<LineLoginResult>(`/public/core/sessions/${projectCode.toUpperCase()}/line`, { body });
export const lineSignUp = (projectCode: string) => api<SessionInfo>(`/public/core/members/${projectCode.toUpperCase()}/line`, { body: { adult: true } });

export const lineBinding = (memberId: string) => api<LineBinding>(`/private/core/members/line/${member(memberId)}`);
export const bindLine = (memberId: string, body: LineCode) => api<LineBinding>(`/private/core/members/line/${member(memberId)}`, { body });
export const unbindLine = (memberId: string) => api<LineBinding>(`/private/core/members/line/${member(memberId)}`, { method: "DELETE" });
