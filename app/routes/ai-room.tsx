import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/ai-room";
import type { AiImage } from "../../worker/contract/ai";
import type { Envelope } from "../../worker/contract/envelope";
import { AiRoom } from "../features/ai/ai-room";
import { loginPath, requireSessionCookie } from "../lib/api.server";
import { redirect } from "react-router";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ai:title") }];

/**
 * §6: kycStatus 9 only. The gallery call is under /public (§7) yet identifies the member by the
 * forwarded session; a 403 renders the "not allowed" notice instead of the room.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const response = await context.api(
    new Request(new URL("/api/v7/public/partner/ai/images?pageSize=30", request.url), { headers: { Accept: "application/json", ...session } }),
  );
  const body = (await response.json()) as Envelope<AiImage[]>;
  if (body.returnCode === "100003" || body.returnCode === "401000") throw redirect(loginPath(request));
  return { allowed: "info" in body, images: "info" in body ? body.info : [], memberId: session["X-Member-ID"] };
}

export default function AiRoomPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("ai");
  if (!loaderData.allowed) {
    return (
      <main className="page">
        <h1>{t("title")}</h1>
        <p role="alert">{t("notAllowed")}</p>
        <Link to={`/${params.projectCode}/home`}>{t("backHome")}</Link>
      </main>
    );
  }
  return <AiRoom projectCode={params.projectCode} memberId={loaderData.memberId!} initial={loaderData.images} />;
}
