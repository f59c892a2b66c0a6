import { useLocation } from "react-router";
import type { Route } from "./+types/share";
import { PublicProfile } from "../features/profiles/public-profile";
import { loadPublicProfile, shareCode } from "../features/profiles/profiles.server";
import { useRestOfPage } from "../lib/use-rest-of-page";
import "../features/profiles/profiles.css";

/** Cards per strip that come with the page (the strips sit under the profile, below the fold on a phone). */
const FIRST_OF_STRIP = 8;

/**
 * Public profile: /share/{simpleCode} and /s?c= (or ?sharingCode=). The page brings the first FIRST_OF_STRIP of
 * each strip and reads the rest after hydration (`all`) (README Decisions "Lighter main pages").
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const code = shareCode(request, params.projectCode, (params as { simpleCode?: string }).simpleCode);
  const page = await loadPublicProfile({ request, context }, params.projectCode, code);
  if (new URL(request.url).searchParams.has("all")) return { ...page, partial: false };
  const lists = page.lists;
  const partial = Object.values(lists).some((list) => list.length > FIRST_OF_STRIP);
  return {
    ...page,
    lists: { hot: lists.hot.slice(0, FIRST_OF_STRIP), newbie: lists.newbie.slice(0, FIRST_OF_STRIP), online: lists.online.slice(0, FIRST_OF_STRIP), speech: lists.speech.slice(0, FIRST_OF_STRIP) },
    partial,
  };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `${data.profile.nickname || data.profile.simpleCode} · Velvet` : "Velvet" }];

export default function Share({ loaderData, params }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const rest = useRestOfPage<Awaited<ReturnType<typeof loader>>>(loaderData.partial, `${pathname}${search ? `${search}&` : "?"}all`);
  // Only the strips come longer, and only for the profile on screen.
  const data = rest && rest.profile.simpleCode === loaderData.profile.simpleCode ? { ...loaderData, lists: rest.lists } : loaderData;
  return <PublicProfile key={loaderData.profile.simpleCode} projectCode={params.projectCode.toLowerCase()} data={data} />;
}
