import { useTranslation } from "react-i18next";
import { NETWORK_FAILURE } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { lateModule } from "../../lib/late-module";

/**
 * The end-to-end code (e2e-code.ts), fetched when a conversation first needs it rather than with the page: the
 * public chat and the photo pages render every message before any is decrypted, and most members there never send a
 * private reply (README Decisions "End-to-end code comes after the first paint").
 */
export const e2eCode = lateModule(() => import("./e2e-code"));

/**
 * The end-to-end code for sealing a send, or null when it could not be fetched (offline): then nothing is sent,
 * never a plain copy, the member keeps the text and reads why.
 */
export function useE2eCodeForSend() {
  const { t } = useTranslation();
  const toast = useToast();
  return () =>
    e2eCode.fetch().catch(() => {
      toast(errorText(t, NETWORK_FAILURE), "error");
      return null;
    });
}
