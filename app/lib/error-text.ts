import type { TFunction } from "i18next";
import type { Failure } from "../../worker/contract/envelope";

/**
 * The catalogue text (worker/contract/errors.ts) in the member's language, by returnCode. A code the
 * locale files lack (a bare HTTP status from a proxy such as "413", a code newer than this bundle) gets the
 * translated generic text of its HTTP status family ("413000", else "500000"), so a member never reads
 * the server's English; the English text is only the last resort.
 */
export function errorText(t: TFunction, failure: Pick<Failure, "returnCode" | "returnMessage">): string {
  const code = failure.returnCode;
  const family = `${code.slice(0, 3)}000`;
  return t([`errors:${code}`, `errors:${family}`, "errors:500000"], { defaultValue: failure.returnMessage });
}
