import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import { api } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { LocalTime } from "../../i18n/use-format";

type MyVerification = { kycStatus: number; verified: boolean; requestedAt: string | null };

/**
 * README Decisions "Verification": shown where kycStatus 1 is needed (the basement, leaving a message). Says what
 * verification is and what happens next, and sends the member's one request to the flame holder.
 */
export function VerificationPrompt({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const path = `/private/core/flame/${projectCode.toUpperCase()}/verification`;
  const [state, setState] = useState<MyVerification | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void api<MyVerification>(path).then((body) => {
      if (live && isOk(body)) setState(body.info);
    });
    return () => {
      live = false;
    };
  }, [path]);

  async function ask() {
    setBusy(true);
    const body = await api<MyVerification>(path, { method: "POST" });
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
