import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { LocalTime } from "../../i18n/use-format";
import type { Verification } from "../../../worker/contract/social";
import * as social from "../../api/social-api";

/**
 * README Decisions "Verification": shown where kycStatus 1 is needed (the basement, leaving a message). Says what
 * verification is and what happens next, and sends the member's one request to the flame holder.
 */
export function VerificationPrompt({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [state, setState] = useState<Verification | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void social.myVerification(projectCode).then((body) => {
      if (live && isOk(body)) setState(body.info);
    });
    return () => {
      live = false;
    };
  }, [projectCode]);

  async function ask() {
    setBusy(true);
    const body = await social.askVerification(projectCode);
    setBusy(false);
    if (isOk(body)) {
      setState(body.info);
      toast(t("verify.sent"), "success");
    } else toast(errorText(t, body), "error");
  }

  if (state?.verified) return null;
  return (
    <section className="card stack verify-prompt" aria-labelledby="verify-title">
      <h2 id="verify-title">{t("verify.title")}</h2>
      <p>{t("verify.what")}</p>
      <p className="muted">{t("verify.next")}</p>
      {state?.requestedAt ? (
        <p role="status">
          {t("verify.waiting")} <LocalTime value={state.requestedAt} />
        </p>
      ) : (
        <button type="button" className="button button-primary" disabled={busy || !state} onClick={() => void ask()}>
          {t("verify.request")}
        </button>
      )}
    </section>
  );
}
