import { useCallback, useState } from "react";
import type { Route } from "./+types/home";
import type { HomeDashboard as Dashboard } from "../../worker/contract/home";
import { HomeDashboard } from "../features/home/home-dashboard";
import { useLogout } from "../features/session/use-logout";
import { loadApi, requireSessionCookie } from "../lib/api.server";
import { useRestOfPage } from "../lib/use-rest-of-page";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** Avatars per list that come with the page: more than a phone shows before the member scrolls. */
const FIRST_OF_LIST = 8;
/** The dashboard's long lists (§2 strips, the hot grid, notes): the page brings the first of each. */
const LISTS = ["suggested", "related", "latestSpeech", "latestOnline", "mostVisits", "hotProfiles", "notes"] as const;

/**
 * One loader, one in-process API call, one D1 batch behind it (worker/features/home/home.service.ts). The page
 * brings the first FIRST_OF_LIST of each long list and the whole dashboard follows after hydration (`?all`)
 * (README Decisions "Lighter main pages"): some 210 avatar cards (8 of each list show on a phone without scrolling) made the HTML some 200 KB.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireSessionCookie(request);
  const dashboard = await loadApi<Dashboard>(context, request, `/core/home/${params.projectCode.toUpperCase()}`, { private: true });
  if (new URL(request.url).searchParams.has("all")) return { dashboard, partial: false };
  const first: Dashboard = { ...dashboard, newbies: { ...dashboard.newbies, profiles: dashboard.newbies.profiles.slice(0, FIRST_OF_LIST) } };
  for (const list of LISTS) (first as Record<(typeof LISTS)[number], unknown[]>)[list] = dashboard[list].slice(0, FIRST_OF_LIST);
  const partial = LISTS.some((list) => dashboard[list].length > FIRST_OF_LIST) || dashboard.newbies.profiles.length > FIRST_OF_LIST;
  return { dashboard: first, partial };
}

export default function Home({ loaderData, params }: Route.ComponentProps) {
  const logout = useLogout(params.projectCode);
  const projectCode = params.projectCode.toLowerCase();
  // The rest of the long lists is read once one of them is on screen, and each list shows its rest
  // once it is on screen itself: rendering some 200 more cards at once after hydration was most of the page's blocking time.
  const [listsWanted, setListsWanted] = useState(false);
  const wantLists = useCallback(() => setListsWanted(true), []);
  const more = useRestOfPage<Awaited<ReturnType<typeof loader>>>(loaderData.partial && listsWanted, `/${projectCode}/home?all`)?.dashboard;
  // Everything else stays the page's own data (it is read again after an action); only the long lists come longer.
  return <HomeDashboard data={loaderData.dashboard} more={more} onListNear={wantLists} projectCode={projectCode} onLogout={() => void logout()} />;
}
