import type { Route } from "./+types/profile";
import type { Banner, Character, OwnProfile } from "../../worker/contract/profiles";
import { MyProfile } from "../features/profiles/my-profile";
import { loadApi, requireSessionCookie } from "../lib/api.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const p = params.projectCode.toUpperCase();
  const profile = await loadApi<OwnProfile>(context, request, `/core/profiles/${session["X-Member-ID"]}`, { private: true });
  const [characters, banners, role] = await Promise.all([
    loadApi<Character[]>(context, request, `/sns/characters/${p}`, { private: true }),
    loadApi<Banner[]>(context, request, `/core/banners/users/${profile.simpleCode}`, { private: true }),
    loadApi<{ operator: boolean }>(context, request, `/core/moderation/${p}/role`, { private: true }),
  ]);
  return { profile, characters, banners, operator: role.operator };
}

export default function Profile({ loaderData, params }: Route.ComponentProps) {
  return (
    <MyProfile
      projectCode={params.projectCode.toLowerCase()}
      initial={loaderData.profile}
      characters={loaderData.characters}
      banners={loaderData.banners}
      operator={loaderData.operator}
    />
  );
}
