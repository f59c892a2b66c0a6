import type { Route } from "./+types/share";
import { PublicProfile } from "../features/profiles/public-profile";
import { loadPublicProfile, shareCode } from "../features/profiles/profiles.server";
import "../features/profiles/profiles.css";

/** Public profile: /share/{simpleCode} and /s?c= (or ?sharingCode=). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const code = shareCode(request, params.projectCode, (params as { simpleCode?: string }).simpleCode);
  return loadPublicProfile({ request, context }, params.projectCode, code);
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `${data.profile.nickname || data.profile.simpleCode} · Velvet` : "Velvet" }];

export default function Share({ loaderData, params }: Route.ComponentProps) {
  return <PublicProfile key={loaderData.profile.simpleCode} projectCode={params.projectCode.toLowerCase()} data={loaderData} />;
}
