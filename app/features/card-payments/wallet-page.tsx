import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { CardPackage, CardPayment, SavedCard } from "../../../worker/contract/card-payments";
import type { CoinInfo } from "../../../worker/contract/market";
import { useToast } from "../../components/toast";
import { announceCoinsChanged, useLiveMcoin } from "../market/coins-live";
import { errorText } from "../../lib/error-text";
import * as cardApi from "../../api/card-payments-api";
import "./card-payments.css";

export type WalletData = { memberId: string; coins: CoinInfo; packages: CardPackage[] | null; cards: SavedCard[]; payments: CardPayment[] };

/** The payment this tab sent to the hosted checkout, so the return page waits for that one (README Decisions "Card payments"). */
const PENDING_KEY = "velvet:card-payment";
const POLL_MS = 1500;
const POLL_LIMIT = 60;

const money = (lang: string, price: number, currency: string) =>
  new Intl.NumberFormat(lang, { style: "currency", currency: currency.toUpperCase() }).format(price / 100);

/**
 * Balance, coin packages by card and saved cards. The return from the hosted checkout only WAITS: coins arrive when
 * the provider's verified webhook reaches the server, and the page polls the payment until it is paid.
 */
export function WalletPage({ projectCode, data }: { projectCode: string; data: WalletData }) {
  const { t, i18n } = useTranslation("card");
  const toast = useToast();
  const mcoin = useLiveMcoin(data.coins.mcoin);
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState<string | null>(null);
  const [cards, setCards] = useState(data.cards);
  const [payments, setPayments] = useState(data.payments);
  const [waiting, setWaiting] = useState<"waiting" | "credited" | "late" | null>(null);
  const [credited, setCredited] = useState(0);
  const memberId = encodeURIComponent(data.memberId);

  useEffect(() => setCards(data.cards), [data.cards]);
  useEffect(() => setPayments(data.payments), [data.payments]);

  // Back from the hosted pages: wait for the webhook's credit, or say the card was saved / nothing was charged.
  useEffect(() => {
    const checkout = params.get("checkout");
    const binding = params.get("binding");
    if (!checkout && !binding) return;
    setParams({}, { replace: true });
    if (binding === "done") toast(t("cards.saved"), "success");
    if (checkout === "cancelled") toast(t("buy.cancelled"), "banner");
    if (checkout !== "done") return;
    const idPayment = Number(sessionStorage.getItem(PENDING_KEY) ?? 0);
    let cancelled = false;
    setWaiting("waiting");
    void (async () => {
      for (let i = 0; i < POLL_LIMIT && !cancelled; i++) {
        const body = await cardApi.cardPayments(memberId);
        if ("info" in body) {
          setPayments(body.info);
          const payment = body.info.find((p) => p.idPayment === idPayment) ?? body.info[0];
          if (payment && payment.status !== "pending") {
            sessionStorage.removeItem(PENDING_KEY);
            setCredited(payment.status === "paid" ? payment.coins : 0);
            setWaiting(payment.status === "paid" ? "credited" : "late");
            announceCoinsChanged();
            return;
          }
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      if (!cancelled) setWaiting("late");
    })();
    return () => {
      cancelled = true;
    };
  }, [params, setParams, memberId, t, toast]);

  async function buy(pack: CardPackage) {
    setBusy(pack.idPackage);
    const body = await cardApi.cardCheckout(memberId, pack.idPackage);
    if ("info" in body) {
      sessionStorage.setItem(PENDING_KEY, String(body.info.idPayment));
      window.location.assign(body.info.url);
      return;
    }
    setBusy(null);
    toast(errorText(t, body), "error");
  }

  async function saveCard() {
    setBusy("binding");
    const body = await cardApi.startCardBinding(memberId);
    if ("info" in body) {
      window.location.assign(body.info.url);
      return;
    }
    setBusy(null);
    toast(errorText(t, body), "error");
  }

  async function remove(card: SavedCard) {
    setBusy(card.idCard);
    const body = await cardApi.removeCard(memberId, card.idCard);
    setBusy(null);
    if ("info" in body) {
      setCards((list) => list.filter((c) => c.idCard !== card.idCard));
      toast(t("cards.removed"), "success");
    } else toast(errorText(t, body), "error");
  }

  return (
    <main className="page wallet-page">
      <h1>{t("title")}</h1>
      <p className="wallet-page-balance" aria-live="polite">
        <span aria-hidden="true">🪙</span> {t("balance", { count: mcoin })}
      </p>
      <p className="muted">
        <Link to={`/${projectCode}/market`}>{t("toMarket")}</Link>
      </p>
      {waiting && (
        <p className="card wallet-status" role="status">
          {waiting === "waiting" ? t("buy.waiting") : waiting === "credited" ? t("buy.credited", { count: credited }) : t("buy.late")}
        </p>
      )}

      <section aria-labelledby="buy-coins">
        <h2 id="buy-coins">{t("buy.heading")}</h2>
        {data.packages ? (
          <>
            <p className="muted">{t("buy.note")}</p>
            <ul className="wallet-packages">
              {data.packages.map((pack) => (
                <li key={pack.idPackage} className="card wallet-package">
                  <span className="wallet-package-coins">{t("balance", { count: pack.coins })}</span>
                  <span>{money(i18n.language, pack.price, pack.currency)}</span>
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={busy !== null}
                    aria-label={t("buy.action", { count: pack.coins, price: money(i18n.language, pack.price, pack.currency) })}
                    onClick={() => void buy(pack)}
                  >
                    {t("buy.button")}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="muted">{t("buy.unavailable")}</p>
        )}
      </section>

      {data.packages && (
        <section aria-labelledby="saved-cards">
          <h2 id="saved-cards">{t("cards.heading")}</h2>
          {cards.length === 0 ? (
            <p className="muted">{t("cards.none")}</p>
          ) : (
            <ul className="wallet-cards">
              {cards.map((card) => {
                const name = t("cards.card", { brand: card.brand.toUpperCase(), last4: card.last4, month: String(card.expMonth).padStart(2, "0"), year: card.expYear });
                return (
                  <li key={card.idCard} className="card wallet-card">
                    <span>{name}</span>
                    <button type="button" className="button button-danger" disabled={busy !== null} aria-label={t("cards.remove", { card: name })} onClick={() => void remove(card)}>
                      {t("cards.removeShort")}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <button type="button" className="button" disabled={busy !== null} onClick={() => void saveCard()}>
            {t("cards.add")}
          </button>
        </section>
      )}

      {payments.length > 0 && (
        <section aria-labelledby="card-purchases">
          <h2 id="card-purchases">{t("history.heading")}</h2>
          <ul className="wallet-history">
            {payments.map((p) => (
              <li key={p.idPayment}>
                {t("balance", { count: p.coins })} · {money(i18n.language, p.price, p.currency)} · {t(`history.${p.status}`)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
