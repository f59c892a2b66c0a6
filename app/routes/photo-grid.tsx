import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/photo-grid";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { Avatar } from "../components/avatar";
import { readAsViewer } from "../features/profiles/profiles.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const hot = await readAsViewer<ProfileSummary[]>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/hot?pageSize=48`, []);
  return { hot };
}

/** §2/§9: hot avatars, 10 shown until load more. */
export default function PhotoGrid({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  const [shown, setShown] = useState(10);
  return (
    <main className="page stack">
      <h1>{t("photoGrid.title")}</h1>
      <ul className="photo-grid" aria-label={t("photoGrid.title")}>
        {loaderData.hot.slice(0, shown).map((p) => (
          <li key={p.simpleCode} className="profile-card">
            <Avatar profile={p} size={140} link />
            <span className="profile-card-name">{p.nickname || p.simpleCode}</span>
          </li>
        ))}
      </ul>
      {shown < loaderData.hot.length && (
        <button type="button" className="button" onClick={() => setShown((n) => n + 10)}>
          {t("common:loadMore")}
        </button>
      )}
    </main>
  );
}
