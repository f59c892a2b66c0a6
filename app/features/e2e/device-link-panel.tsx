import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../components/toast";
import { LocalTime } from "../../i18n/use-format";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { formatCode, LinkError, linkWithCode, startLinking } from "./device-link";

/**
 * Settings → Devices with message keys → linking (README Decisions "Linking a second device"): on the new device,
 * "Show a linking code"; on a device the member already uses, "Link a new device" with that code. The code stays on
 * screen; only an HMAC tag and re-wrapped keys reach the server (device-link.ts).
 */
export function DeviceLinkPanel({ onLinked }: { onLinked?: () => void }) {
  const { t } = useTranslation("e2e-link");
  const toast = useToast();
  const [shown, setShown] = useState<{ code: string; expiresAt: string } | null>(null);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<string | null>(null);

  async function show() {
    const session = readSession();
    if (!session) return;
    try {
      setShown(await startLinking(session.memberId, session.memberNo));
    } catch (failure) {
      toast(errorText(t, failure as { returnCode: string; returnMessage: string }), "error");
    }
  }

  async function link(event: React.FormEvent) {
    event.preventDefault();
    const session = readSession();
    if (!session || busy) return;
    setBusy(true);
    setResult(null);
    setProgress(0);
    try {
      const done = await linkWithCode(session.memberId, session.memberNo, input, setProgress);
      setResult(t("linked", { name: done.name, count: done.count }));
      setInput("");
      onLinked?.();
    } catch (failure) {
      if (failure instanceof LinkError) toast(t(failure.message === "badCode" ? "badCode" : "noMatch"), "error");
      else if (failure && typeof failure === "object" && "returnCode" in failure) toast(errorText(t, failure as { returnCode: string; returnMessage: string }), "error");
      else toast(t("failed"), "error");
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <div className="e2e-link" id="e2e-link">
      <h3>{t("linkTitle")}</h3>
      <p className="settings-row-hint">{t("linkHint")}</p>
      <div>
        <button type="button" className="button" onClick={() => void show()}>
          {t("showCode")}
        </button>
      </div>
      {shown && (
        <div className="e2e-notice" role="status">
          <p>{t("codeFor")}</p>
          <p className="e2e-link-code">
            {formatCode(shown.code)}
          </p>
          <p className="settings-row-hint">
            {t("codeHint")} <LocalTime value={shown.expiresAt} preset="shortDateTime" />
          </p>
        </div>
      )}
      <form className="e2e-link-form" onSubmit={(e) => void link(e)}>
        <label>
          <span>{t("codeLabel")}</span>
          <input value={input} onChange={(e) => setInput(e.target.value)} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={24} inputMode="text" />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("linkButton")}
        </button>
      </form>
      {progress !== null && <p className="muted" role="status">{t("linking", { count: progress })}</p>}
      {result && (
        <p className="e2e-notice" role="status">
          {result}
        </p>
      )}
    </div>
  );
}
