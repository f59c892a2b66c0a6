import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../components/toast";
import * as home from "../../api/home-api";
import { errorText } from "../../lib/error-text";

/** §2/§4 feedback box (the confessional): non-empty after trimming, success banner for 5 s. */
export function FeedbackBox({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("home");
  const { t: te } = useTranslation("errors");
  const toast = useToast();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (message.trim() === "") {
      setError(t("feedback.empty"));
      return;
    }
    setBusy(true);
    const body = await home.sendFeedback(projectCode, message);
    setBusy(false);
    if ("info" in body) {
      setMessage("");
      setError(null);
      toast(t("feedback.thanks"), "banner");
    } else setError(errorText(te, body));
  }

  return (
    <section className="home-section card" aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t("feedback.title")}</h2>
      <p className="muted">{t("feedback.hint")}</p>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>{t("feedback.label")}</span>
          <textarea
            rows={3}
            value={message}
            maxLength={2000}
            onChange={(e) => setMessage(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "feedback-error" : undefined}
          />
        </label>
        {error && (
          <p id="feedback-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("feedback.submit")}
        </button>
      </form>
    </section>
  );
}
