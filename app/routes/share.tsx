import { useState } from "react";
import { useLocation } from "react-router";
import type { Route } from "./+types/share";
import { PublicProfile } from "../features/profiles/public-profile";
import { loadPublicProfile, shareCode } from "../features/profiles/profiles.server";
import { useRestOfPage } from "../lib/use-rest-of-page";

/**
 * Public profile: /share/{simpleCode} and /s?c= (or ?sharingCode=). The member strips sit under the profile, below
 * a phone's first screen: the page brings only how many cards each strip has (for their placeholders) and reads
 * them through this same loader (`all`, the same server checks) when the strips near the screen (README Decisions
 * "Lighter main pages"). Hydrating their cards with the page was most of its blocking time.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const code = shareCode(request, params.projectCode, (params as { simpleCode?: string }).simpleCode);
  const page = await loadPublicProfile({ request, context }, params.projectCode, code);
  if (new URL(request.url).searchParams.has("all")) return { ...page, partial: false };
  const { hot, newbie, online, speech } = page.lists;
  const listSizes = { hot: hot.length, newbie: newbie.length, online: online.length, speech: speech.length };
  const partial = Object.values(listSizes).some((n) => n > 0);
  return { ...page, lists: { hot: [], newbie: [], online: [], speech: [] }, listSizes, partial };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `${data.profile.nickname || data.profile.simpleCode} · Velvet` : "Velvet" }];

export default function Share({ loaderData, params }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  // The strips are asked for once they near the screen (PublicProfile calls `onStripsNear`).
  const [wanted, setWanted] = useState<string | null>(null);
  const rest = useRestOfPage<Awaited<ReturnType<typeof loader>>>(loaderData.partial && wanted === loaderData.profile.simpleCode, `${pathname}${search ? `${search}&` : "?"}all`);
  // Only the strips come from it, and only for the profile on screen.
  const data = rest && rest.profile.simpleCode === loaderData.profile.simpleCode ? { ...loaderData, lists: rest.lists, partial: false } : loaderData;
  return (
    <PublicProfile key={loaderData.profile.simpleCode} projectCode={params.projectCode.toLowerCase()} data={data} onStripsNear={() => setWanted(loaderData.profile.simpleCode)} />
  );
}
