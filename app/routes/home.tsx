import { useTranslation } from "react-i18next";
import type { Route } from "./+types/home";
import { useLogout } from "../features/session/use-logout";
import { requireSessionCookie } from "../lib/api.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

export function loader({ request }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  return { memberId: session["X-Member-ID"] };
}

export default function Home({ params }: Route.ComponentProps) {
  const { t } = useTranslation("home");
  const logout = useLogout(params.projectCode);
  return (
    <main className="page">
      <h1>{t("title")}</h1>
      <button type="button" className="button" onClick={() => void logout()}>
        {t("common:logout")}
      </button>
    </main>
  );
}
