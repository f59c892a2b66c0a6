import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/registration";
import type { SessionInfo } from "../../worker/contract/session";
import { MessageDialog } from "../components/alert-dialog";
import { AuthCard } from "../features/session/auth-card";
import { useFinishLogin } from "../features/session/use-finish-login";
import { api } from "../lib/api";
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [searchParams] = useSearchParams();
  const linkCode = searchParams.get(REFERRAL_PARAM)?.trim() ?? "";
  const [referralCode, setReferralCode] = useState(linkCode);
  // A code from the link wins; without one, a code kept from an earlier visit of an invitation link.
  useEffect(() => {
    if (linkCode) localStorage.setItem(REFERRAL_KEY, linkCode);
    else setReferralCode(localStorage.getItem(REFERRAL_KEY) ?? "");
  }, [linkCode]);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    // §5: password and confirm must match.
    if (password !== String(form.get("confirm") ?? "")) return setError(t("errors:400101"));
    setBusy(true);
    const username = String(form.get("username") ?? "");
    const code = referralCode.trim();
    // §7: with a code, referral sign-up (the member joins the inviter's tenant, which the link names).
    const body = code
      ? await api<SessionInfo>("/public/core/members/referral-signup", { body: { username, password, adult: true, referralCode: code } })
      : await api<SessionInfo>(`/public/core/members/${params.projectCode.toUpperCase()}`, { body: { username, password, adult: true } });
    setBusy(false);
    if ("info" in body) {
      localStorage.removeItem(REFERRAL_KEY);
      finish(body.info);
    }
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
        <label className="field">
          <span>{t("settings:invite.codeField")}</span>
          <input name="referralCode" value={referralCode} onChange={(e) => setReferralCode(e.currentTarget.value)} autoComplete="off" maxLength={32} />
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
