import { useTranslation } from "react-i18next";
import { Link, useFetcher, useParams, useSearchParams } from "react-router";
import type { Route } from "./+types/all-profiles";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { cardPage, type CardPage, useCardPages } from "../features/profiles/card-pages";
import { ProfileGrid } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";
import "../features/profiles/profiles.css";

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
  return { page: cardPage(inVisitOrder(profiles, seed), url), filter: valid ?? null, seed };
}

/**
 * §2's random order, kept while the member pages through it: the API shuffles each read, so "Load more" would show
 * repeats and skip members. Each member's place comes from a hash of the visit's seed and their code instead.
 */
function inVisitOrder(list: ProfileSummary[], seed: string): ProfileSummary[] {
  const place = (code: string) => {
    let h = 2166136261;
    for (const ch of `${seed}:${code}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return (h ^ (h >>> 13)) >>> 0;
  };
  return list.map((p) => ({ p, at: place(p.simpleCode) })).sort((a, b) => a.at - b.at).map(({ p }) => p);
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
  const pageHref = (from: number) => `/${projectCode}/all-profiles?${new URLSearchParams({ ...(filter ? { lookFor: filter } : {}), seed, from: String(from) })}`;
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
