import { useTranslation } from "react-i18next";
import { Link, type ShouldRevalidateFunctionArgs, useFetcher, useParams, useSearchParams } from "react-router";
import type { Route } from "./+types/all-profiles";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { type CardPage, shuffledCardPage } from "../features/profiles/card-pages";
import { useCardPages } from "../features/profiles/use-card-pages";
import { ProfileGrid } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** §2 filters: 1 male S, 3 male M, 2 female S, 4 female M, SKYPE, TWITTER. */
const FILTERS = ["1", "3", "2", "4", "skype", "twitter"] as const;
/** Cards on a phone's first screen below the filters (five rows of three): their avatars come with the document. */
const ALL_FIRST_SCREEN = 15;
/** Cards that render with the page; the rest of a page when they near the screen (profile-grid.tsx). */
const ALL_RENDERED = 18;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const valid = FILTERS.find((f) => f === url.searchParams.get("lookFor"));
  const query = valid ? `?lookFor=${valid}&pageSize=500` : "?pageSize=500";
  const profiles = await readAsViewer<ProfileSummary[]>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/all${query}`, []);
  const seed = url.searchParams.get("seed")?.match(/^[0-9a-f]{8}$/)?.[0] ?? crypto.randomUUID().slice(0, 8);
  return { page: shuffledCardPage(profiles, seed, url), filter: valid ?? null, seed };
}

/** A revalidation of the same address (the language switch) keeps the visit's list: a new read would reshuffle it. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.href !== nextUrl.href && defaultShouldRevalidate;
}

export default function AllProfiles({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  const [, setSearch] = useSearchParams();
  return (
    <main className="page stack">
      <h1>{t("all.title")}</h1>
      <div className="filters" role="group" aria-label={t("all.filters")}>
        <Link className="chip" to="?" aria-pressed={loaderData.filter === null} role="button">
          {t("all.everyone")}
        </Link>
        {FILTERS.map((f) => (
          <button key={f} type="button" className="chip" aria-pressed={loaderData.filter === f} onClick={() => setSearch({ lookFor: f })}>
            {t(`all.filter.${f}`)}
          </button>
        ))}
      </div>
      {/* Each read of the page (a filter chosen, the page opened again) is a new list in a new order: its pages start again. */}
      <AllProfilesList key={loaderData.seed} first={loaderData.page} filter={loaderData.filter} seed={loaderData.seed} />
    </main>
  );
}

function AllProfilesList({ first, filter, seed }: { first: CardPage; filter: string | null; seed: string }) {
  const { t } = useTranslation("profiles");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const more = useFetcher<typeof loader>();
  const { cards, next } = useCardPages(first, more.data?.page);
  const pageHref = (at: string) => `/${projectCode}/all-profiles?${new URLSearchParams({ ...(filter ? { lookFor: filter } : {}), seed, at })}`;
  return (
    <>
      <ProfileGrid profiles={cards} label={t("all.results")} eager={ALL_FIRST_SCREEN} firstScreen={ALL_RENDERED} />
      {next !== null && (
        <div className="row">
          <button type="button" className="button" disabled={more.state !== "idle"} onClick={() => more.load(pageHref(next))}>
            {t("common:loadMore")}
          </button>
        </div>
      )}
    </>
  );
}
