import { useTranslation } from "react-i18next";
import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/basement";
import type { BasementInfo } from "../../worker/contract/social";
import { Avatar } from "../components/avatar";
import { profilePath } from "../features/social/social-client";
import { VerificationPrompt } from "../features/social/verification-prompt";
import { callApi, sessionHeaders } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";
import { Icon } from "../components/icon";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "social:basement.title") }];

/**
 * §2/§6: /basement/ is a separate site outside the project path, shown only to verified members (kycStatus 1, or 9 which includes it, §6).
 * The API decides (403202 for everyone else); the tenant comes from the member's session.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!sessionHeaders(request)) throw redirect("/smp/login");
  const body = await callApi<BasementInfo>(context, request, "/core/basement?pageSize=60", { private: true });
  if (!("info" in body)) {
    if (body.returnCode === "100003" || body.returnCode === "401000") throw redirect("/smp/login");
    // README Decisions "Verification": the denied page offers the request, which needs the member's tenant.
    const memberId = sessionHeaders(request)?.["X-Member-ID"] ?? "";
    const me = await callApi<{ projectCode: string }>(context, request, `/core/profiles/${memberId}`, { private: true });
    return data({ denied: true as const, info: null, projectCode: "info" in me ? me.info.projectCode : null }, { status: 403 });
  }
  return { denied: false as const, info: body.info, projectCode: body.info.projectCode };
}

export default function Basement({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("social");
  if (loaderData.denied || !loaderData.info) {
    return (
      <main className="page page-center">
        <h1>{t("basement.title")}</h1>
        <p role="alert">{t("basement.denied")}</p>
        {loaderData.projectCode && <VerificationPrompt projectCode={loaderData.projectCode} />}
        <Link to={loaderData.projectCode ? `/${loaderData.projectCode.toLowerCase()}/home` : "/"}>{t("basement.back")}</Link>
      </main>
    );
  }
  const { projectCode, members, flame } = loaderData.info;
  const project = projectCode.toLowerCase();
  return (
    <main className="page basement">
      <h1>{t("basement.title")}</h1>
      <p className="muted">{t("basement.intro")}</p>
      <section className="card stack" aria-labelledby="basement-flame">
        <h2 id="basement-flame"><Icon name="flame" className="icon-flame" /> {t("basement.flame")}</h2>
        {flame.profile ? (
          <Link className="person" to={profilePath(project, flame.profile.simpleCode)}>
            <Avatar profile={flame.profile} size={44} />
            <span className="person-name">{flame.profile.nickname || flame.profile.simpleCode}</span>
          </Link>
        ) : (
          <p className="muted">{t("basement.noFlame")}</p>
        )}
      </section>
      <section className="stack" aria-labelledby="basement-members">
        <h2 id="basement-members">{t("basement.members")}</h2>
        {members.length === 0 && <p className="empty-state">{t("basement.noMembers")}</p>}
        <ul className="basement-grid">
          {members.map((m) => (
            <li key={m.simpleCode}>
              <Link to={profilePath(project, m.simpleCode)}>
                <Avatar profile={m} size={72} />
                {m.nickname || m.simpleCode}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <Link className="button" to={`/${project}/home`}>
        {t("basement.back")}
      </Link>
    </main>
  );
}
