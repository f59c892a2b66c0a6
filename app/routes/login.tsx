import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/login";
import type { SessionInfo } from "../../worker/contract/session";
import { MessageDialog } from "../components/alert-dialog";
import { Avatar } from "../components/avatar";
import { AuthCard } from "../features/session/auth-card";
import { LineLoginButton } from "../features/line/line-login-button";
import { useFinishLogin } from "../features/session/use-finish-login";
import { api } from "../lib/api";
import { callApi } from "../lib/api.server";
import { errorText } from "../lib/error-text";

type HotProfile = { simpleCode: string; nickname: string; avator: string };

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/**
 * A submit before hydration posts here (the form says `method="post"`, so a password never lands in the URL,
 * history or logs); the body is not read and the page is shown again, hydrated, to submit through the API.
 */
export const action = ({ request }: Route.ActionArgs) => redirectBack(request);

/** §9: 30 hot profiles are fetched on login, the first 11 shown. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const body = await callApi<HotProfile[]>(context, request, `/core/profiles/${params.projectCode.toUpperCase()}/hot?pageSize=30`);
  const hot = body.returnCode === "000000" && "info" in body && Array.isArray(body.info) ? body.info : [];
  return { hot: hot.filter((p) => p.avator).slice(0, 11) };
}

export default function Login({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("session");
  const finish = useFinishLogin(params.projectCode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const body = await api<SessionInfo>(`/public/core/sessions/${params.projectCode.toUpperCase()}`, {
      body: { username: String(form.get("username") ?? ""), password: String(form.get("password") ?? "") },
    });
    setBusy(false);
    if ("info" in body) finish(body.info);
    else setError(errorText(t, body));
  }

  return (
    <AuthCard title={t("login.title")}>
      {loaderData.hot.length > 0 && (
        <ul className="hot-avatars" aria-label={t("login.hotMembers")}>
          {loaderData.hot.map((p) => (
            <li key={p.simpleCode}>
              {/* §6: visitors see blurred avatars; safe mode shows placeholders. */}
              <Avatar profile={p} size={40} />
            </li>
          ))}
        </ul>
      )}
      <form method="post" onSubmit={submit} className="form" noValidate={false}>
        <label className="field">
          <span>{t("email")}</span>
          <input name="username" type="email" autoComplete="email" required />
        </label>
        <label className="field">
          <span>{t("password")}</span>
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("login.submit")}
        </button>
      </form>
      <LineLoginButton projectCode={params.projectCode} />
      <p className="auth-switch">
        <Link to={`/${params.projectCode}/reset-password`}>{t("login.forgot")}</Link>
      </p>
      <p className="auth-switch">
        {t("login.noAccount")} <Link to={`/${params.projectCode}/registration`}>{t("login.toRegistration")}</Link>
      </p>
      <MessageDialog open={error !== null} title={t("login.failedTitle")} message={error ?? ""} onClose={() => setError(null)} />
    </AuthCard>
  );
}
