import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { redirectBack } from "../lib/redirect-back.server";
import type { Route } from "./+types/login";
import { Avatar } from "../components/avatar";
import { AuthCard } from "../features/session/auth-card";
import { LineLoginButton } from "../features/line/line-login-button";
import { AuthField, AuthForm, field } from "../features/session/auth-form";
import { useFinishLogin } from "../features/session/use-finish-login";
import * as session from "../api/session-api";
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

  async function submit(form: FormData) {
    const body = await session.login(params.projectCode, field(form, "username"), field(form, "password"));
    if (!("info" in body)) return errorText(t, body);
    finish(body.info);
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
      <AuthForm submitLabel={t("login.submit")} messageTitle={t("login.failedTitle")} onSubmit={submit}>
        <AuthField label={t("email")} name="username" kind="email" />
        <AuthField label={t("password")} name="password" kind="current-password" />
      </AuthForm>
      <LineLoginButton projectCode={params.projectCode} />
      <p className="auth-switch">
        <Link to={`/${params.projectCode}/reset-password`}>{t("login.forgot")}</Link>
      </p>
      <p className="auth-switch">
        {t("login.noAccount")} <Link to={`/${params.projectCode}/registration`}>{t("login.toRegistration")}</Link>
      </p>
    </AuthCard>
  );
}
