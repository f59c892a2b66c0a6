import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/lottery";
import {
  COLLECTIBLE_PATHS as P,
  LOTTERY_MIN_ACCOUNT_DAYS,
  lotteryCommitment,
  lotteryWinnerIndex,
  type LotteryDraw,
  type LotteryPage,
  type LotteryToday,
} from "../../worker/contract/collectibles.constants";
import { useToast } from "../components/toast";
import { pageTitle } from "../i18n/page-title";
import { LocalTime } from "../i18n/use-format";
import * as collectibles from "../api/collectibles-api";
import { loadApi } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import "../features/collectibles/collectibles.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "collectibles:lottery.title") }];

/** README Decisions "Collectibles and the daily lottery": today's commitment, my entry, past draws to check. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadApi<LotteryPage>(context, request, P.lottery(params.projectCode.toUpperCase()), { private: true });
}

export default function LotteryRoute({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("collectibles");
  const p = params.projectCode.toUpperCase();
  const projectCode = params.projectCode.toLowerCase();
  const toast = useToast();
  const [today, setToday] = useState<LotteryToday>(loaderData.today);
  const [busy, setBusy] = useState(false);
  const coinsText = (amount: number) => t("coins", { count: amount / 100 });

  async function enter() {
    setBusy(true);
    const body = await collectibles.enterLottery(p);
    setBusy(false);
    if ("info" in body) setToday(body.info);
    else toast(errorText(t, body), "error");
  }

  return (
    <main className="page stack">
      <div className="section-head">
        <h1>{t("lottery.title")}</h1>
        <Link className="button" to={`/${projectCode}/collectibles`}>
          {t("open")}
        </Link>
      </div>
      <p className="muted">{t("lottery.intro")}</p>
      <section className="card stack" aria-labelledby="today-heading">
        <h2 id="today-heading">{t("lottery.today", { date: today.drawDate })}</h2>
        <p>{t("lottery.prize", { prize: coinsText(today.prize) })}</p>
        <p>{t("lottery.entries", { count: today.entryCount })}</p>
        <p className="muted">
          {t("lottery.closes", { time: "" })}
          <LocalTime value={today.closesAt} />
        </p>
        <div className="stack">
          <span className="muted">{t("lottery.commitment")}</span>
          <code className="lottery-hash" data-testid="lottery-commitment">
            {today.commitment}
          </code>
        </div>
        {today.entered ? (
          <div className="stack" role="status">
            <strong>{t("lottery.entered")}</strong>
            <span className="muted">{t("lottery.ticket")}</span>
            <code className="lottery-hash">{today.myTicket}</code>
          </div>
        ) : today.eligibility === "eligible" ? (
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void enter()}>
            {t("lottery.enter")}
          </button>
        ) : (
          <p className="notice" role="note" data-testid="lottery-eligibility">
            {t(`lottery.eligibility.${today.eligibility}`, { days: LOTTERY_MIN_ACCOUNT_DAYS })}{" "}
            {today.eligibility === "needsApprovedAvatar" && <Link to={`/${projectCode}/profile`}>{t("lottery.eligibility.toProfile")}</Link>}
          </p>
        )}
      </section>
      <section className="stack" aria-labelledby="past-heading">
        <h2 id="past-heading">{t("lottery.past")}</h2>
        <p className="muted">{t("lottery.formula")}</p>
        {loaderData.past.length === 0 ? (
          <p className="empty-state">{t("lottery.noPast")}</p>
        ) : (
          <ul className="lottery-draws">
            {loaderData.past.map((draw) => (
              <PastDraw key={draw.drawDate} projectCode={p} draw={draw} coinsText={coinsText} />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

/** A drawn day: commitment, seed, winning ticket; "Check" fetches the ordered tickets and re-runs the formula here. */
function PastDraw({ projectCode, draw, coinsText }: { projectCode: string; draw: LotteryDraw; coinsText: (amount: number) => string }) {
  const { t } = useTranslation("collectibles");
  const [check, setCheck] = useState<"verified" | "mismatch" | null>(null);

  async function verify() {
    const body = await collectibles.lotteryDraw(projectCode, draw.drawDate);
    if (!("info" in body) || !body.info.seed) return setCheck("mismatch");
    const detail = body.info;
    const index = await lotteryWinnerIndex(detail.seed!, detail.drawDate, detail.tickets);
    const ok = (await lotteryCommitment(detail.seed!)) === detail.commitment && index === detail.winnerIndex;
    setCheck(ok ? "verified" : "mismatch");
  }

  return (
    <li className="card stack">
      <h3>{draw.drawDate}</h3>
      <p>{t("lottery.prize", { prize: coinsText(draw.prize) })}</p>
      {draw.youWon && <strong>{t("lottery.youWon")}</strong>}
      <span className="muted">{t("lottery.commitment")}</span>
      <code className="lottery-hash">{draw.commitment}</code>
      {draw.seed === null ? (
        <p className="muted">{t("lottery.notDrawn")}</p>
      ) : (
        <>
          <span className="muted">{t("lottery.seed")}</span>
          <code className="lottery-hash">{draw.seed}</code>
          <p className="lottery-hash">
            {draw.winnerTicket === null ? t("lottery.noEntries") : t("lottery.winner", { ticket: draw.winnerTicket, index: (draw.winnerIndex ?? 0) + 1, count: draw.entryCount })}
          </p>
          {draw.myTicket && (
            <>
              <span className="muted">{t("lottery.ticket")}</span>
              <code className="lottery-hash">{draw.myTicket}</code>
            </>
          )}
          <button type="button" className="button" aria-label={t("lottery.checkNamed", { date: draw.drawDate })} onClick={() => void verify()}>
            {t("lottery.check")}
          </button>
          {check && <p role="status">{t(`lottery.${check}`)}</p>}
        </>
      )}
    </li>
  );
}
