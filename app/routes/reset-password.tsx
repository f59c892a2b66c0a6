import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/reset-password";
import { AuthCard } from "../features/session/auth-card";
import { AuthField, AuthForm, field } from "../features/session/auth-form";
import * as session from "../api/session-api";
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

  async function submit(form: FormData) {
    if (token) {
      const password = field(form, "password");
      if (password !== field(form, "confirm")) return t("errors:400101");
      const body = await session.resetPassword(params.projectCode, token, password);
      return "info" in body ? t("reset.done") : errorText(t, body);
    }
    const body = await session.forgotPassword(params.projectCode, field(form, "email"));
    return "info" in body ? t("reset.sent") : errorText(t, body);
  }

  return (
    <AuthCard title={t("reset.title")}>
      <AuthForm submitLabel={t(token ? "reset.submitPassword" : "reset.submitEmail")} messageTitle={t("reset.title")} onSubmit={submit}>
        {token ? (
          <>
            <AuthField label={t("reset.newPassword")} name="password" kind="new-password" minLength={8} />
            <AuthField label={t("registration.confirm")} name="confirm" kind="new-password" />
          </>
        ) : (
          <AuthField label={t("email")} name="email" kind="email" />
        )}
      </AuthForm>
      <p className="auth-switch">
        <Link to={`/${params.projectCode}/login`}>{t("registration.toLogin")}</Link>
      </p>
    </AuthCard>
  );
}
