import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/registration";
import { AuthCard } from "../features/session/auth-card";
import { AuthField, AuthForm, field } from "../features/session/auth-form";
import { useFinishLogin } from "../features/session/use-finish-login";
import * as session from "../api/session-api";
import { errorText } from "../lib/error-text";
import { REFERRAL_PARAM } from "../features/settings/referral-link";

/** §3 local key: a referral code from an invitation link, kept until the sign-up it was for succeeds. */
const REFERRAL_KEY = "referralCode";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/**
 * A submit before hydration posts here (the form says `method="post"`, so a password never lands in the URL,
 * history or logs); the body is not read and the page is shown again, hydrated, to submit through the API.
 */
export const action = ({ request }: Route.ActionArgs) => redirectBack(request);

export default function Registration({ params }: Route.ComponentProps) {
  const { t } = useTranslation("session");
  const finish = useFinishLogin(params.projectCode);
  const [searchParams] = useSearchParams();
  const linkCode = searchParams.get(REFERRAL_PARAM)?.trim() ?? "";
  const [referralCode, setReferralCode] = useState(linkCode);
  // A code from the link wins; without one, a code kept from an earlier visit of an invitation link.
  useEffect(() => {
    if (linkCode) localStorage.setItem(REFERRAL_KEY, linkCode);
    else setReferralCode(localStorage.getItem(REFERRAL_KEY) ?? "");
  }, [linkCode]);

  async function submit(form: FormData) {
    const password = field(form, "password");
    // §5: password and confirm must match.
    if (password !== field(form, "confirm")) return t("errors:400101");
    const username = field(form, "username");
    const code = referralCode.trim();
    // §7: with a code, referral sign-up (the member joins the inviter's tenant, which the link names).
    const body = code
      ? await session.referralSignUp(username, password, code)
      : await session.signUp(params.projectCode, username, password);
    if (!("info" in body)) return errorText(t, body);
    localStorage.removeItem(REFERRAL_KEY);
    finish(body.info);
  }

  return (
    <AuthCard title={t("registration.title")}>
      <AuthForm submitLabel={t("registration.submit")} messageTitle={t("registration.failedTitle")} onSubmit={submit}>
        <AuthField label={t("email")} name="username" kind="email" />
        <AuthField label={t("password")} name="password" kind="new-password" minLength={8} />
        <AuthField label={t("registration.confirm")} name="confirm" kind="new-password" />
        <label className="field">
          <span>{t("settings:invite.codeField")}</span>
          <input name="referralCode" value={referralCode} onChange={(e) => setReferralCode(e.currentTarget.value)} autoComplete="off" maxLength={32} />
        </label>
        <label className="check">
          <input name="adult" type="checkbox" required />
          <span>{t("registration.adultNotice")}</span>
        </label>
      </AuthForm>
      <p className="auth-switch">
        {t("registration.haveAccount")} <Link to={`/${params.projectCode}/login`}>{t("registration.toLogin")}</Link>
      </p>
    </AuthCard>
  );
}
