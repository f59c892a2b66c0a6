import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { MessageDialog } from "../../components/alert-dialog";
import { lineAvailability } from "../../api/line-api";
import { errorText } from "../../lib/error-text";
import { startLine } from "./line-start";

/** "Continue with LINE" on the login page, shown only when the server has LINE configured (README "LINE login"). */
export function LineLoginButton({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("line");
  const [enabled, setEnabled] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void lineAvailability(projectCode).then((body) => setEnabled(isOk(body) && body.info.enabled));
  }, [projectCode]);

  if (!enabled) return null;
  return (
    <div className="line-login">
      <p className="line-or">{t("or")}</p>
      <button
        type="button"
        className="button line-button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          const failure = await startLine(projectCode, "login");
          if (failure) {
            setBusy(false);
            setError(errorText(t, failure));
          }
        }}
      >
        {t("continue")}
      </button>
      <MessageDialog open={error !== null} title={t("callback.failedTitle")} message={error ?? ""} onClose={() => setError(null)} />
    </div>
  );
}
