import { useEffect, useState } from "react";
import { I18nextProvider } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useParams, useRouteLoaderData, useRouteError } from "react-router";
import type { Route } from "./+types/root";
import { NavigationProgress } from "./components/navigation-progress";
import { completeLanguage, createI18n, unpackBundle } from "./i18n/i18n";
import { LANGUAGE_COOKIE, pickLanguage, languageDataStale, type LanguageCode } from "./i18n/languages";
import englishCommon from "./i18n/locales/en/common.json";
import { pageNamespaces } from "./i18n/page-namespaces";
import { resourcesFor } from "./i18n/resources.server";
import { readCookie } from "./lib/api.server";
import { HydrationFlag } from "./lib/hydrated";
import "./styles/app.css";
import "./styles/shared-features.css";

export function loader({ request }: Route.LoaderArgs) {
  const lang = pickLanguage(readCookie(request, LANGUAGE_COOKIE), request.headers.get("Accept-Language"));
  // A main page brings only its own namespaces (app/i18n/page-namespaces.ts); the rest follows after hydration.
  const only = pageNamespaces(new URL(request.url).pathname);
  // One JSON text, read with one JSON.parse in the browser (unpackBundle).
  return { lang, resources: JSON.stringify(resourcesFor(lang, only)), partial: only !== null };
}

// Language resources arrive once; switching language loads the new bundle on the client, and the root data
// (page titles, <html lang>) once more right after the switch.
export const shouldRevalidate = () => languageDataStale();

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  // The tenant's web app manifest (start_url /{project}/home), served by the worker.
  const project = useParams().projectCode;
  return (
    <html lang={data?.lang ?? "en"} data-loaded-lang={data?.lang ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#1a0f1f" />
        {project && /^[A-Za-z]{3}$/.test(project) && <link rel="manifest" href={`/${project.toLowerCase()}/manifest.webmanifest`} />}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const [i18n] = useState(() => createI18n(loaderData.lang as LanguageCode, unpackBundle(loaderData.resources)));
  // Browser tests wait for this before interacting, so no click lands on a page React has not hydrated.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // The page came with its own namespaces only: the whole language (one cached request) follows at once, so the
  // next page and any dialog find their strings. Added silently: what is on screen already has its strings.
  const partial = loaderData.partial;
  // In a task of its own: starting the request was part of the page's first effects, the longest task after hydration.
  useEffect(() => {
    if (!partial) return;
    const timer = setTimeout(() => void completeLanguage(i18n, loaderData.lang), 0);
    return () => clearTimeout(timer);
  }, [partial, i18n, loaderData.lang]);
  return (
    <I18nextProvider i18n={i18n}>
      <HydrationFlag>
        <NavigationProgress />
        <Outlet />
      </HydrationFlag>
    </I18nextProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Rendered without App's provider: the same language and strings from the root loader (English if it failed).
  const data = useRouteLoaderData<typeof loader>("root");
  const [i18n] = useState(() => createI18n((data?.lang ?? "en") as LanguageCode, data?.resources ? unpackBundle(data.resources) : { en: { common: englishCommon } }));
  const t = i18n.getFixedT(null, "common");
  return (
    <main className="page page-center">
      <h1>{status === 404 ? "404" : "Velvet"}</h1>
      <p>{status === 404 ? t("notFound") : t("genericError")}</p>
      <a href="/">Velvet</a>
    </main>
  );
}
