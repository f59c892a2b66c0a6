import type { Route } from "./+types/wallet";
import type { CardPackage, CardPayment, SavedCard } from "../../worker/contract/card-payments";
import type { CoinInfo } from "../../worker/contract/market";
import { WalletPage } from "../features/card-payments/wallet-page";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "card:title") }];

/**
 * The wallet (README Decisions "Card payments"): balance, coin packages by card and saved cards. Without the
 * provider's configuration the card routes answer 404 `cardPaymentsOff` and the page shows no buy button.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const memberId = session["X-Member-ID"] ?? "";
  const id = encodeURIComponent(memberId);
  const read = async <T,>(path: string) => {
    const body = await callApi<T>(context, request, path, { private: true });
    return "info" in body ? body.info : null;
  };
  const [coins, packages, cards, payments] = await Promise.all([
    read<CoinInfo>(`/core/pvs/${id}`),
    read<{ packages: CardPackage[] }>(`/core/card/packages/${id}`),
    read<SavedCard[]>(`/core/card/binding/${id}`),
    read<CardPayment[]>(`/core/card/payments/${id}?pageSize=10`),
  ]);
  return { memberId, coins: coins ?? { mcoin: 0, scoin: 0 }, packages: packages?.packages ?? null, cards: cards ?? [], payments: payments ?? [] };
}

export default function Wallet({ loaderData, params }: Route.ComponentProps) {
  return <WalletPage projectCode={params.projectCode.toLowerCase()} data={loaderData} />;
}
