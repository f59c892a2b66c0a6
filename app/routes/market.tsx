import { useTranslation } from "react-i18next";
import type { Route } from "./+types/market";
import type { BiddingCard, CoinInfo, PopularKeyword } from "../../worker/contract/market";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import type { GeolocationInfo } from "../../worker/contract/social";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { BiddingCards, CharacterTags, GroupSection, NearbyPanel, SearchPanel, mergeLists, type MarketGroup } from "../features/market/market-sections";
import { WalletPanel } from "../features/market/wallet-panel";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "market:title") }];

/** §2 grouped lists: two headed S, two headed M, one special (the switches). */
const GROUPS: Omit<MarketGroup, "profiles">[] = [
  { key: "maleS", genders: [1] },
  { key: "femaleS", genders: [2] },
  { key: "maleM", genders: [3] },
  { key: "femaleM", genders: [4] },
  { key: "special", genders: [5, 6] },
];

/** §2: the market redirects to login when logged out. Everything the page shows first is read here, in-process. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const memberId = session["X-Member-ID"] ?? "";
  const p = params.projectCode.toUpperCase();
  const read = async <T,>(path: string, fallback: T, isPrivate = true): Promise<T> => {
    const body = await callApi<T>(context, request, path, { private: isPrivate });
    return "info" in body ? body.info : fallback;
  };
  const genders = [1, 2, 3, 4, 5, 6];
  const [coins, geolocation, biddings, keywords, characters, ...lists] = await Promise.all([
    read<CoinInfo>(`/core/pvs/${memberId}`, { scoin: 0, mcoin: 0 }),
    read<GeolocationInfo | null>(`/core/geolocation/${memberId}`, null),
    read<BiddingCard[]>(`/sns/market/${p}/biddings?pageSize=20`, []),
    read<PopularKeyword[]>(`/sns/search/popular-keyword/${p}?pageSize=10`, []),
    read<{ idCharacter: number; title: string }[]>(`/sns/characters/${p}`, []),
    ...genders.map((g) => read<ProfileSummary[]>(`/core/profiles/${p}/multi-gender/${g}?pageSize=20`, [])),
  ]);
  const byGender = new Map(genders.map((g, i) => [g, lists[i] as ProfileSummary[]]));
  const groups: MarketGroup[] = GROUPS.map((g) => ({ ...g, profiles: mergeLists(g.genders.map((x) => byGender.get(x) ?? []), 20) }));
  // Only the switch's state reaches the page, not the member's own position.
  return { memberId, showPosition: geolocation?.showPosition ?? false, coins, biddings, keywords, characters: characters.map((c) => ({ idCharacter: c.idCharacter, title: c.title })), groups };
}

export default function Market({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("market");
  const projectCode = params.projectCode.toLowerCase();
  return (
    <main className="page market">
      <div className="market-head">
        <h1>{t("title")}</h1>
        <WalletPanel memberId={loaderData.memberId} initial={loaderData.coins} />
      </div>
      <SearchPanel projectCode={projectCode} keywords={loaderData.keywords} />
      <NearbyPanel projectCode={projectCode} memberId={loaderData.memberId} showPosition={loaderData.showPosition} />
      <BiddingCards projectCode={projectCode} cards={loaderData.biddings} />
      {loaderData.groups.map((group) => (
        <GroupSection key={group.key} projectCode={projectCode} group={group} />
      ))}
      <CharacterTags projectCode={projectCode} characters={loaderData.characters} />
    </main>
  );
}
