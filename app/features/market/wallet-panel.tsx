import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { CoinInfo, } from "../../../worker/contract/market";
import { useToast } from "../../components/toast";
import * as market from "../../api/market-api";
import { errorText } from "../../lib/error-text";
import { Dialog, DialogClose } from "../../components/dialog";

/**
 * M coin balance (§7 pvs) and the wallet transfer {simpleCode, amount, otp}: a one-time code is mailed,
 * the amount is sent ×100 (§9), and one requestId per dialog makes a double tap or retry move coins once.
 */
export function WalletPanel({ memberId, initial }: { memberId: string; initial: CoinInfo }) {
  const { t } = useTranslation("market");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const toast = useToast();
  const [coins, setCoins] = useState(initial);
  const [open, setOpen] = useState(false);
  const [requestId, setRequestId] = useState("");
  const [codeSent, setCodeSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ simpleCode: "", coins: "1", otp: "" });

  function start() {
    setRequestId(crypto.randomUUID());
    setCodeSent(false);
    setForm({ simpleCode: "", coins: "1", otp: "" });
    setOpen(true);
  }

  async function sendCode() {
    const body = await market.sendOtp(memberId);
    if ("info" in body) {
      setCodeSent(true);
      toast(t("wallet.codeSent"), "success");
    } else toast(errorText(t, body), "error");
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = await market.transfer(memberId, {
      simpleCode: form.simpleCode.trim(),
      amount: Math.round(Number(form.coins) * 100),
      otp: form.otp.trim(),
      requestId,
    });
    setBusy(false);
    if ("info" in body) {
      setCoins(body.info.balance);
      setOpen(false);
      toast(t("wallet.done", { count: body.info.transfer.coins, name: body.info.transfer.counterparty?.nickname ?? form.simpleCode }), "success");
    } else toast(errorText(t, body), "error");
  }

  return (
    <div className="wallet">
      <p className="wallet-balance" aria-live="polite">
        <span aria-hidden="true">🪙</span> {t("wallet.balance", { count: coins.mcoin })}
      </p>
      <button type="button" className="button" onClick={start}>
        {t("wallet.open")}
      </button>
      {/* README Decisions "Card payments": coins by card and saved cards live on the wallet page. */}
      <Link className="button" to={`/${projectCode}/wallet`}>
        {t("card:openWallet")}
      </Link>
      <Dialog open={open} onOpenChange={setOpen} title={t("wallet.title")} description={t("wallet.body", { count: coins.mcoin })} returnFocus>
        <form className="form" onSubmit={submit}>
          <label className="field">
            <span>{t("wallet.recipient")}</span>
            <input inputMode="numeric" pattern="\d{1,12}" required value={form.simpleCode} onChange={(e) => setForm({ ...form, simpleCode: e.target.value })} />
          </label>
          <label className="field">
            <span>{t("wallet.amount")}</span>
            <input type="number" min={1} step={1} required value={form.coins} onChange={(e) => setForm({ ...form, coins: e.target.value })} />
          </label>
          <button type="button" className="button" onClick={() => void sendCode()}>
            {codeSent ? t("wallet.resend") : t("wallet.sendCode")}
          </button>
          <label className="field">
            <span>{t("wallet.code")}</span>
            <input inputMode="numeric" pattern="\d{6}" autoComplete="one-time-code" required value={form.otp} onChange={(e) => setForm({ ...form, otp: e.target.value })} />
          </label>
          <div className="dialog-actions">
            <DialogClose>{t("cancel")}</DialogClose>
            <button type="submit" className="button button-primary" disabled={busy || !codeSent}>
              {t("wallet.send")}
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
