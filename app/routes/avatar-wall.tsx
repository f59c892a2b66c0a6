import { useTranslation } from "react-i18next";
import type { Route } from "./+types/avatar-wall";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { Avatar } from "../components/avatar";
import { readAsViewer } from "../features/profiles/profiles.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const hot = await readAsViewer<ProfileSummary[]>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/hot?pageSize=48`, []);
  return { hot };
}

/** §2 avatar wall of hot profiles. */
export default function AvatarWall({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  return (
    <main className="page stack">
      <h1>{t("wall.title")}</h1>
      {loaderData.hot.length === 0 ? (
        <p className="empty-state">{t("common:empty")}</p>
      ) : (
        <ul className="wall" aria-label={t("wall.title")}>
          {loaderData.hot.map((p) => (
            <li key={p.simpleCode}>
              <Avatar profile={p} size={72} link />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
