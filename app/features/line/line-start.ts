import type { LineAuthorization } from "../../../worker/contract/line";
import { LINE_CALLBACK_PATH } from "../../../worker/contract/line.constants";
import { authorizeLine } from "../../api/line-api";
import type { Envelope } from "../../../worker/contract/envelope";

/** What the callback page finishes: kept for the tab only, between leaving for LINE and coming back. */
export const LINE_INTENT_KEY = "lineIntent";
export type LineIntent = "login" | "bind";

/** §7 redirectUrl: this tenant's callback page on the origin the member is on (the server checks it). */
export const lineCallbackUrl = (projectCode: string) => `${window.location.origin}/${projectCode.toLowerCase()}/${LINE_CALLBACK_PATH}`;

/**
 * Starts a LINE sign-in (login from the login page, bind from My profile): the server keeps the state, nonce and
 * PKCE verifier and sets an HttpOnly cookie; the browser goes to LINE. Answers the failure when it cannot start.
 */
export async function startLine(projectCode: string, intent: LineIntent, memberId?: string): Promise<Envelope<LineAuthorization> | null> {
  const redirectUrl = lineCallbackUrl(projectCode);
  const body = await authorizeLine(projectCode, redirectUrl, intent === "bind" ? memberId : undefined);
  if (!("info" in body)) return body;
  sessionStorage.setItem(LINE_INTENT_KEY, intent);
  window.location.assign(body.info.authorizeUrl);
  return null;
}
