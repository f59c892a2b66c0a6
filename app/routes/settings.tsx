import type { Route } from "./+types/settings";
import type { ContactSettings } from "../../worker/contract/chat";
import type { ReferralInfo } from "../../worker/contract/session";
import type { BlockItem, MuteItem, Page, SocialSettings } from "../../worker/contract/social";
import { SettingsPage, type SettingsData } from "../features/settings/settings-page";
import { loadApi, requireSessionCookie } from "../lib/api.server";
import { redirectBack } from "../lib/redirect-back.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** A password form submitted before hydration posts here; the body is not read, the page comes back hydrated. */
export const action = ({ request }: Route.ActionArgs) => redirectBack(request);

export async function loader({ request, context }: Route.LoaderArgs): Promise<SettingsData> {
  const session = requireSessionCookie(request);
  const memberId = encodeURIComponent(session["X-Member-ID"] ?? "");
  const get = <T,>(path: string) => loadApi<T>(context, request, path, { private: true });
  const [profile, contact, social, referral, blocks, mutes] = await Promise.all([
    get<SettingsData["profile"]>(`/core/profiles/${memberId}`),
    get<ContactSettings>("/sns/chat-settings"),
    get<SocialSettings>("/core/social-settings"),
    get<ReferralInfo>(`/core/members/${memberId}/referral`),
    get<Page<BlockItem>>("/core/blocks?pageSize=100"),
    get<Page<MuteItem>>("/core/mutes?pageSize=100"),
  ]);
  return {
    profile: { memberId: profile.memberId, safeMode: profile.safeMode, muted: profile.muted },
    contact,
    social,
    referral,
    blocks: blocks.items,
    mutes: mutes.items,
  };
}

export default function Settings({ loaderData, params }: Route.ComponentProps) {
  return <SettingsPage projectCode={params.projectCode.toLowerCase()} data={loaderData} />;
}
