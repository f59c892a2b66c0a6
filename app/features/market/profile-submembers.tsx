import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isMasterGender } from "../../../worker/contract/market.constants";
import type { SubmemberList } from "../../../worker/contract/market";
import { Avatar } from "../../components/avatar";
import { Dialog, DialogClose } from "../../components/dialog";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { ConfirmTwice } from "./confirm-twice";
import * as market from "../../api/market-api";

/**
 * A master's sub-member (slave) list with the join button, shown on public profiles and on
 * market/{masterMemberNo} (§2, §6). The master sells or frees with a two-step confirm (§4); a visitor
 * joins after one confirm and cannot undo it; a logged-out visitor is sent to login.
 */
export function ProfileSubmembers({ projectCode, memberNo, multiGender }: { projectCode: string; memberNo: string; multiGender: number | null }) {
  const { t } = useTranslation(["market", "connections"]);
  const format = useFormat();
  const toast = useToast();
  const project = projectCode.toUpperCase();
  const [data, setData] = useState<SubmemberList | null>(null);
  const [loggedIn, setLoggedIn] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const session = readSession();
    setLoggedIn(Boolean(session));
    const body = await market.submembers(project, memberNo);
    if ("info" in body) setData(body.info);
  }, [project, memberNo]);

  useEffect(() => {
    void load();
  }, [load]);

  const gender = data?.master.multiGender ?? multiGender;
  if (!isMasterGender(gender) && (data?.subMembers.length ?? 0) === 0) return null;
  const masterName = data?.master.nickname || memberNo;
  const joinLabel = gender === 2 ? t("join.mistress") : t("join.master");

  async function join() {
    setBusy(true);
    const body = await market.joinMaster(project, memberNo);
    setBusy(false);
    setJoinOpen(false);
    if ("info" in body) {
      toast(t("join.done", { name: masterName }), "success");
      await load();
    } else {
      // §8 Cannot join is a warning.
      toast(errorText(t, body), body.returnCode === "409301" ? "warning" : "error");
    }
  }

  async function act(kind: "free" | "sell", simpleCode: string, name: string) {
    const body =
      kind === "free"
        ? await market.freeSubmember(project, simpleCode)
        : await market.sellSubmember(simpleCode);
    if ("info" in body) toast(t(kind === "free" ? "free.done" : "sell.done", { name }), "success");
    else toast(errorText(t, body), "error");
    await load();
  }

  const viewer = data?.viewer ?? null;
  // README Decisions "Who sees my connections": a hidden list shows no list, count or "empty" line; the join stays.
  const hidden = data?.connectionsHidden === true;
  if (hidden && !viewer?.canJoin && !viewer?.isSubmember && !(!loggedIn && isMasterGender(gender))) return null;
  return (
    <section className="section submembers" aria-labelledby={`submembers-${memberNo}`}>
      <div className="section-head">
        <h2 id={`submembers-${memberNo}`}>{hidden ? t("connections:submembersTitle") : t("submembers.title", { count: data?.subMembers.length ?? 0 })}</h2>
        {!loggedIn && isMasterGender(gender) && (
          <Link className="button button-primary" to={`/${projectCode.toLowerCase()}/login`}>
            {joinLabel}
          </Link>
        )}
        {viewer?.canJoin && (
          <button type="button" className="button button-primary" onClick={() => setJoinOpen(true)}>
            {joinLabel}
          </button>
        )}
      </div>
      {viewer?.isSubmember && <p className="muted">{t("submembers.yours", { name: masterName })}</p>}
      {viewer && !viewer.isMaster && !viewer.isSubmember && viewer.owned && isMasterGender(gender) && <p className="muted">{t("submembers.owned")}</p>}
      {data && !hidden && data.subMembers.length === 0 && <p className="muted">{t("submembers.empty")}</p>}
      {data && data.subMembers.length > 0 && (
        <ul className="submember-list" aria-label={t("submembers.list", { name: masterName })}>
          {data.subMembers.map((item) => {
            const name = item.profile.nickname || item.profile.simpleCode;
            return (
              <li key={item.profile.simpleCode} className="submember-card">
                <Avatar profile={item.profile} size={48} link />
                <div className="submember-text">
                  <span className="submember-name">{name}</span>
                  <span className="muted small" suppressHydrationWarning>
                    {t("submembers.since", { date: format.date(item.dateAdd) })}
                  </span>
                </div>
                {viewer?.isMaster && (
                  <div className="submember-actions">
                    <ConfirmTwice
                      trigger={t("sell.button", { name })}
                      title={t("sell.title", { name })}
                      first={t("sell.first", { name })}
                      second={t("sell.second", { name })}
                      confirmLabel={t("sell.confirm")}
                      onConfirm={() => act("sell", item.profile.simpleCode, name)}
                    />
                    <ConfirmTwice
                      danger
                      trigger={t("free.button", { name })}
                      title={t("free.title", { name })}
                      first={t("free.first", { name })}
                      second={t("free.second", { name })}
                      confirmLabel={t("free.confirm")}
                      onConfirm={() => act("free", item.profile.simpleCode, name)}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Dialog kind="alert" open={joinOpen} onOpenChange={setJoinOpen} title={joinLabel} description={t("join.confirmBody", { name: masterName })}>
        <div className="dialog-actions">
          <DialogClose>{t("cancel")}</DialogClose>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void join()}>
            {t("join.confirm")}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
