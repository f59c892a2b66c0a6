import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator } from "react-router";
import type { Route } from "./+types/collectibles";
import {
  COLLECTIBLE_PATHS as P,
  EDITION_SIZE_MAX,
  type CollectibleEdition,
  type CollectibleEvent,
  type Gas,
} from "../../worker/contract/collectibles.constants";
import type { CoinInfo } from "../../worker/contract/market";
import type { Banner } from "../../worker/contract/profiles";
import { useToast } from "../components/toast";
import { CollectibleCard } from "../features/collectibles/collectible-card";
import * as collectibles from "../api/collectibles-api";
import { pageTitle } from "../i18n/page-title";
import { LocalTime } from "../i18n/use-format";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import "../features/collectibles/collectibles.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "collectibles:title") }];

/** README Decisions "Collectibles and the daily lottery": mine, for sale, history, and minting from my own photos. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const memberId = session["X-Member-ID"] ?? "";
  const p = params.projectCode.toUpperCase();
  const read = async <T,>(path: string, fallback: T): Promise<T> => {
    const body = await callApi<T>(context, request, path, { private: true });
    return "info" in body ? body.info : fallback;
  };
  const [gas, mine, listed, history, coins, profile] = await Promise.all([
    read<Gas>(P.gas(p), { mintGas: 100, tradeGas: 100, mintGasCoins: 1, tradeGasCoins: 1 }),
    read<CollectibleEdition[]>(P.mine(p), []),
    read<CollectibleEdition[]>(`${P.listed(p)}?pageSize=60`, []),
    read<CollectibleEvent[]>(`${P.history(p)}?pageSize=30`, []),
    read<CoinInfo>(`/core/pvs/${encodeURIComponent(memberId)}`, { mcoin: 0, scoin: 0 }),
    read<{ simpleCode: string } | null>(`/core/profiles/${encodeURIComponent(memberId)}`, null),
  ]);
  const photos = profile ? await read<Banner[]>(`/core/banners/users/${profile.simpleCode}`, []) : [];
  return { gas, mine, listed, history, coins, photos: photos.map((b) => ({ idBanner: b.idBanner, image: b.image })) };
}

const requestId = () => crypto.randomUUID();

export default function CollectiblesPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("collectibles");
  const p = params.projectCode.toUpperCase();
  const projectCode = params.projectCode.toLowerCase();
  const { gas, mine, listed, history, coins, photos } = loaderData;
  const coinsText = (amount: number) => t("coins", { count: amount / 100 });
  return (
    <main className="page stack">
      <div className="section-head">
        <h1>{t("title")}</h1>
        <Link className="button" to={`/${projectCode}/lottery`}>
          {t("lottery.open")}
        </Link>
      </div>
      <p className="muted">{t("intro")}</p>
      <p aria-live="polite">{t("balance", { count: coins.mcoin })}</p>
      <MintSection projectCode={p} gas={gas} photos={photos} />
      <section className="stack" aria-labelledby="mine-heading">
        <h2 id="mine-heading">{t("mine.heading")}</h2>
        {mine.length === 0 ? (
          <p className="empty-state">{t("mine.empty")}</p>
        ) : (
          <ul className="collectible-grid">
            {mine.map((e) => (
              <CollectibleCard key={e.idEdition} edition={e}>
                <ListingControls projectCode={p} edition={e} coinsText={coinsText} />
              </CollectibleCard>
            ))}
          </ul>
        )}
      </section>
      <section className="stack" aria-labelledby="market-heading">
        <h2 id="market-heading">{t("market.heading")}</h2>
        {listed.length === 0 ? (
          <p className="empty-state">{t("market.empty")}</p>
        ) : (
          <ul className="collectible-grid">
            {listed.map((e) => (
              <CollectibleCard key={e.idEdition} edition={e}>
                <BuyControls projectCode={p} edition={e} gas={gas} coinsText={coinsText} />
              </CollectibleCard>
            ))}
          </ul>
        )}
      </section>
      <section className="stack" aria-labelledby="history-heading">
        <h2 id="history-heading">{t("history.heading")}</h2>
        {history.length === 0 ? (
          <p className="empty-state">{t("history.empty")}</p>
        ) : (
          <ul className="collectible-history">
            {history.map((h) => (
              <li key={`${h.kind}-${h.idCollectible}-${h.idEdition ?? 0}-${h.dateAdd}`} className="card">
                <span>
                  {t(`history.${h.kind}`, {
                    size: h.editionSize,
                    serial: h.serial ?? 0,
                    name: h.counterparty?.nickname || h.counterparty?.simpleCode || t("someone"),
                    price: coinsText(h.amount),
                    gas: coinsText(h.gas),
                  })}
                </span>{" "}
                <LocalTime className="muted" value={h.dateAdd} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

/** Mint: choose one of my photos and the edition size; the gas is shown before the button that pays it. */
function MintSection({ projectCode, gas, photos }: { projectCode: string; gas: Gas; photos: { idBanner: number; image: string }[] }) {
  const { t } = useTranslation("collectibles");
  const toast = useToast();
  const revalidator = useRevalidator();
  const [chosen, setChosen] = useState<number | null>(null);
  const [size, setSize] = useState("10");
  const [busy, setBusy] = useState(false);
  // One request id per chosen photo and size: a double tap or a retry mints once.
  const [key, setKey] = useState(requestId);

  async function mint(event: React.FormEvent) {
    event.preventDefault();
    if (chosen === null) return;
    setBusy(true);
    const body = await collectibles.mint(projectCode, { idBanner: chosen, editionSize: Number(size), requestId: key });
    setBusy(false);
    if ("info" in body) {
      toast(t("mint.done", { size: body.info.editionSize }), "success");
      setChosen(null);
      setKey(requestId());
      void revalidator.revalidate();
    } else toast(errorText(t, body), "error");
  }

  return (
    <section className="card stack" aria-labelledby="mint-heading">
      <h2 id="mint-heading">{t("mint.heading")}</h2>
      {photos.length === 0 ? (
        <p className="muted">{t("mint.noPhotos")}</p>
      ) : (
        <form className="stack" onSubmit={mint}>
          <span className="muted">{t("mint.choose")}</span>
          <ul className="collectible-photos">
            {photos.map((photo, i) => (
              <li key={photo.idBanner}>
                <button
                  type="button"
                  aria-pressed={chosen === photo.idBanner}
                  onClick={() => {
                    setChosen(photo.idBanner);
                    setKey(requestId());
                  }}
                >
                  <img src={photo.image} alt={t("mint.photo", { n: i + 1 })} />
                </button>
              </li>
            ))}
          </ul>
          <label className="field">
            <span>{t("mint.size")}</span>
            <input
              type="number"
              min={1}
              max={EDITION_SIZE_MAX}
              step={1}
              required
              value={size}
              onChange={(e) => {
                setSize(e.target.value);
                setKey(requestId());
              }}
            />
          </label>
          <p>{t("mint.gas", { count: gas.mintGasCoins })}</p>
          <button type="submit" className="button button-primary" disabled={busy || chosen === null}>
            {t("mint.confirm", { size: Number(size) || 0 })}
          </button>
        </form>
      )}
    </section>
  );
}

function ListingControls({ projectCode, edition, coinsText }: { projectCode: string; edition: CollectibleEdition; coinsText: (amount: number) => string }) {
  const { t } = useTranslation("collectibles");
  const toast = useToast();
  const revalidator = useRevalidator();
  const [price, setPrice] = useState("5");
  const [busy, setBusy] = useState(false);

  async function send(method: "PUT" | "DELETE") {
    setBusy(true);
    const body = method === "PUT"
        ? await collectibles.listEdition(projectCode, edition.idEdition, Math.round(Number(price) * 100))
        : await collectibles.unlistEdition(projectCode, edition.idEdition);
    setBusy(false);
    if ("info" in body) {
      toast(method === "PUT" ? t("list.done") : t("list.removed"), "success");
      void revalidator.revalidate();
    } else toast(errorText(t, body), "error");
  }

  if (edition.amount !== null)
    return (
      <div className="stack">
        <span>{t("list.listed", { price: coinsText(edition.amount) })}</span>
        <button type="button" className="button" disabled={busy} onClick={() => void send("DELETE")}>
          {t("list.unlist")}
        </button>
      </div>
    );
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void send("PUT");
      }}
    >
      <label className="field">
        <span>{t("list.price")}</span>
        <input type="number" min={1} step={1} required value={price} onChange={(e) => setPrice(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {t("list.action")}
      </button>
    </form>
  );
}

/** Buy: the price, the gas and the total are shown before the confirming tap; one request id per confirmation. */
function BuyControls({ projectCode, edition, gas, coinsText }: { projectCode: string; edition: CollectibleEdition; gas: Gas; coinsText: (amount: number) => string }) {
  const { t } = useTranslation("collectibles");
  const toast = useToast();
  const revalidator = useRevalidator();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const amount = edition.amount ?? 0;

  async function buy(key: string) {
    setBusy(true);
    const body = await collectibles.buyEdition(projectCode, edition.idEdition, amount, key);
    setBusy(false);
    if ("info" in body) {
      toast(t("buy.done", { serial: edition.serial, size: edition.editionSize }), "success");
      setConfirming(null);
      void revalidator.revalidate();
    } else toast(errorText(t, body), "error");
  }

  if (!confirming)
    return (
      <button
        type="button"
        className="button button-primary"
        aria-label={t("buy.actionNamed", { serial: edition.serial, size: edition.editionSize, price: coinsText(amount) })}
        onClick={() => setConfirming(requestId())}
      >
        {t("buy.action")} · {coinsText(amount)}
      </button>
    );
  return (
    <div className="stack">
      <span role="status">{t("buy.summary", { price: coinsText(amount), gas: coinsText(gas.tradeGas), total: coinsText(amount + gas.tradeGas) })}</span>
      <button type="button" className="button button-primary" disabled={busy} onClick={() => void buy(confirming)}>
        {t("buy.confirm")}
      </button>
      <button type="button" className="button" onClick={() => setConfirming(null)}>
        {t("buy.cancel")}
      </button>
    </div>
  );
}
