import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/**
 * §7 `PUT /core/members/password/{memberId}`: this device stays signed in, every other session (and its sockets)
 * ends on the server at once; the result says so in words, because nothing else on this screen changes.
 */
export function PasswordSection({ memberId }: { memberId: string }) {
  const { t } = useTranslation("settings");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const oldPassword = String(data.get("oldPassword") ?? "");
    const newPassword = String(data.get("newPassword") ?? "");
    // §5: password and confirm must match ('Password does not match').
    if (newPassword !== String(data.get("confirm") ?? "")) return setResult({ ok: false, text: t("errors:400101") });
    setBusy(true);
    const body = await settings.changePassword(memberId, oldPassword, newPassword);
    setBusy(false);
    if (!isOk(body)) return setResult({ ok: false, text: errorText(t, body) });
    form.reset();
    setResult({ ok: true, text: t("password.changed") });
  }

  return (
    <section className="card" aria-labelledby="settings-password">
      <h2 id="settings-password">{t("password.title")}</h2>
      <form method="post" className="form" onSubmit={submit}>
        <label className="field">
          <span>{t("password.old")}</span>
          <input name="oldPassword" type="password" autoComplete="current-password" required />
        </label>
        <label className="field">
          <span>{t("password.new")}</span>
          <input name="newPassword" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <label className="field">
          <span>{t("password.confirm")}</span>
          <input name="confirm" type="password" autoComplete="new-password" required />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("password.saving") : t("password.submit")}
        </button>
      </form>
      {result && (
        <p role={result.ok ? "status" : "alert"} className={`settings-result ${result.ok ? "settings-result-ok" : "settings-result-error"}`}>
          {result.text}
        </p>
      )}
    </section>
  );
}
