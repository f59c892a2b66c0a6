import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/registration";
import type { SessionInfo } from "../../worker/contract/session";
import { MessageDialog } from "../components/alert-dialog";
import { AuthCard } from "../features/session/auth-card";
import { useFinishLogin } from "../features/session/use-finish-login";
import { api } from "../lib/api";
import { errorText } from "../lib/error-text";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/**
 * A submit before hydration posts here (the form says `method="post"`, so a password never lands in the URL,
 * history or logs); the body is not read and the page is shown again, hydrated, to submit through the API.
 */
export const action = ({ request }: Route.ActionArgs) => redirectBack(request);

export default function Registration({ params }: Route.ComponentProps) {
  const { t } = useTranslation("session");
  const finish = useFinishLogin(params.projectCode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    // §5: password and confirm must match.
    if (password !== String(form.get("confirm") ?? "")) return setError(t("errors:400101"));
    setBusy(true);
    const body = await api<SessionInfo>(`/public/core/members/${params.projectCode.toUpperCase()}`, {
      body: { username: String(form.get("username") ?? ""), password, adult: true },
    });
    setBusy(false);
    if ("info" in body) finish(body.info);
    else setError(errorText(t, body));
  }

  return (
    <AuthCard title={t("registration.title")}>
      <form method="post" onSubmit={submit} className="form">
        <label className="field">
          <span>{t("email")}</span>
          <input name="username" type="email" autoComplete="email" required />
        </label>
        <label className="field">
          <span>{t("password")}</span>
          <input name="password" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <label className="field">
          <span>{t("registration.confirm")}</span>
          <input name="confirm" type="password" autoComplete="new-password" required />
        </label>
        <label className="check">
          <input name="adult" type="checkbox" required />
          <span>{t("registration.adultNotice")}</span>
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("registration.submit")}
        </button>
      </form>
      <p className="auth-switch">
        {t("registration.haveAccount")} <Link to={`/${params.projectCode}/login`}>{t("registration.toLogin")}</Link>
      </p>
      <MessageDialog open={error !== null} title={t("registration.failedTitle")} message={error ?? ""} onClose={() => setError(null)} />
    </AuthCard>
  );
}
