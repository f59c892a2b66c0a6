import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/reset-password";
import { MessageDialog } from "../components/alert-dialog";
import { AuthCard } from "../features/session/auth-card";
import { api } from "../lib/api";
import { errorText } from "../lib/error-text";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/**
 * A submit before hydration posts here (the form says `method="post"`, so a password never lands in the URL,
 * history or logs); the body is not read and the page is shown again, hydrated, to submit through the API.
 */
export const action = ({ request }: Route.ActionArgs) => redirectBack(request);

/** Without a token: ask for the e-mail. With the token from the mail: choose a new password. */
export default function ResetPassword({ params }: Route.ComponentProps) {
  const { t } = useTranslation("session");
  const [search] = useSearchParams();
  const token = search.get("token");
  const [message, setMessage] = useState<string | null>(null);
  const project = params.projectCode.toUpperCase();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (token) {
      const password = String(form.get("password") ?? "");
      if (password !== String(form.get("confirm") ?? "")) return setMessage(t("errors:400101"));
      const body = await api(`/public/core/members/${project}/reset/password`, { body: { token, newPassword: password } });
      setMessage("info" in body ? t("reset.done") : errorText(t, body));
    } else {
      const body = await api(`/public/core/members/${project}/forget/password`, { body: { email: String(form.get("email") ?? "") } });
      setMessage("info" in body ? t("reset.sent") : errorText(t, body));
    }
  }

  return (
    <AuthCard title={t("reset.title")}>
      <form method="post" onSubmit={submit} className="form">
        {token ? (
          <>
            <label className="field">
              <span>{t("reset.newPassword")}</span>
              <input name="password" type="password" autoComplete="new-password" minLength={8} required />
            </label>
            <label className="field">
              <span>{t("registration.confirm")}</span>
              <input name="confirm" type="password" autoComplete="new-password" required />
            </label>
          </>
        ) : (
          <label className="field">
            <span>{t("email")}</span>
            <input name="email" type="email" autoComplete="email" required />
          </label>
        )}
        <button type="submit" className="button button-primary">
          {t(token ? "reset.submitPassword" : "reset.submitEmail")}
        </button>
      </form>
      <p className="auth-switch">
        <Link to={`/${params.projectCode}/login`}>{t("registration.toLogin")}</Link>
      </p>
      <MessageDialog open={message !== null} title={t("reset.title")} message={message ?? ""} onClose={() => setMessage(null)} />
    </AuthCard>
  );
}
