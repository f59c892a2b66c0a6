import type { TFunction } from "i18next";
import type { Failure } from "../../worker/contract/envelope";

/** The catalogue text in the member's language, falling back to the server's English text. */
export function errorText(t: TFunction, failure: Pick<Failure, "returnCode" | "returnMessage">): string {
  return t(`errors:${failure.returnCode}`, { defaultValue: failure.returnMessage });
}
