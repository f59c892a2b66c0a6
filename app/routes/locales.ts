import type { Route } from "./+types/locales";
import { normalizeLanguage } from "../i18n/languages";
import { resourcesFor } from "../i18n/resources.server";

/** The strings of one language, fetched when a member switches flags. */
export function loader({ params }: Route.LoaderArgs) {
  const lang = normalizeLanguage(params.lang);
  if (!lang || lang !== params.lang) throw new Response("Unknown language", { status: 404 });
  return Response.json(resourcesFor(lang), { headers: { "Cache-Control": "public, max-age=300" } });
}
