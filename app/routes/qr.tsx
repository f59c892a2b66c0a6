import { useTranslation } from "react-i18next";
import type { Route } from "./+types/qr";
import { SharePanel } from "../features/profiles/share-panel";
import { loadApi, requireSessionCookie } from "../lib/api.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const profile = await loadApi<{ simpleCode: string; nickname: string }>(context, request, `/core/profiles/${session["X-Member-ID"]}`, { private: true });
  return { memberNo: profile.simpleCode, nickname: profile.nickname };
}

/** The member's QR code, link, copy and native share (§2 qr). */
export default function Qr({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  return (
    <main className="page stack">
      <h1>{t("share.qrTitle")}</h1>
      <p className="muted">{t("share.description")}</p>
      <SharePanel projectCode={params.projectCode.toLowerCase()} memberNo={loaderData.memberNo} nickname={loaderData.nickname} />
    </main>
  );
}
