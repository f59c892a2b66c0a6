import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/not-found";

// §2: a project code whose length is not 3 redirects to /smp; anything else unknown is a 404.
export function loader({ params }: Route.LoaderArgs) {
  const first = (params["*"] ?? "").split("/")[0] ?? "";
  if (first.length !== 3) throw redirect("/smp");
  throw new Response("Not found", { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Velvet · 404" }];

export default function NotFound() {
  return null;
}

/**
 * The 404 the loader throws lands here, inside the app (translations, hydration), not in the root boundary:
 * the visitor reads it in their language and has a way on.
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <main className="page page-center">
      <h1>404</h1>
      <p>{t("notFound")}</p>
      <Link className="button" to="/">
        {t("appName")}
      </Link>
    </main>
  );
}
