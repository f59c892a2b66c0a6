import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/all-profiles";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { ProfileGrid } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";
import "../features/profiles/profiles.css";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** §2 filters: 1 male S, 3 male M, 2 female S, 4 female M, SKYPE, TWITTER. */
const FILTERS = ["1", "3", "2", "4", "skype", "twitter"] as const;
/** Cards on a phone's first screen below the filters (five rows of three): their avatars come with the document. */
const ALL_FIRST_SCREEN = 15;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const filter = new URL(request.url).searchParams.get("lookFor");
  const valid = FILTERS.find((f) => f === filter);
  const query = valid ? `?lookFor=${valid}&pageSize=500` : "?pageSize=500";
  const profiles = await readAsViewer<ProfileSummary[]>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/all${query}`, []);
  return { profiles, filter: valid ?? null };
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
      <ProfileGrid profiles={loaderData.profiles} label={t("all.results")} eager={ALL_FIRST_SCREEN} />
    </main>
  );
}
