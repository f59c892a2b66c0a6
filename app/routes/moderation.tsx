import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import type { Route } from "./+types/moderation";
import { isOk, type Envelope } from "../../worker/contract/envelope";
import { SUSPENSION_HOURS } from "../../worker/contract/moderation.constants";
import type { DecisionResult, ModerationAppeal, ModerationCase, ModerationQueue } from "../../worker/contract/moderation";
import { Avatar } from "../components/avatar";
import { useToast } from "../components/toast";
import { LocalTime, useFormat } from "../i18n/use-format";
import { loadApi } from "../lib/api.server";
import * as moderation from "../api/moderation-api";
import * as social from "../api/social-api";
import { errorText } from "../lib/error-text";
import { Icon } from "../components/icon";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** Operators only: the API answers 404 to anyone else, and so does this page (the frame's 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadApi<ModerationQueue>(context, request, `/core/moderation/${params.projectCode.toUpperCase()}/queue`, { private: true });
}

/** README Decisions "Moderation": open reports and unqualified marks per member, appeals, and granting the role. */
export default function Moderation({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("moderation");
  const project = params.projectCode.toUpperCase();
  return (
    <main className="page stack">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <section className="stack" aria-labelledby="moderation-cases">
        <h2 id="moderation-cases">{t("cases")}</h2>
        {loaderData.cases.length === 0 ? <p className="empty-state">{t("noCases")}</p> : loaderData.cases.map((c) => <CaseCard key={c.profile.simpleCode} project={project} item={c} />)}
      </section>
      <section className="stack" aria-labelledby="moderation-appeals">
        <h2 id="moderation-appeals">{t("appeals")}</h2>
        {loaderData.appeals.length === 0 ? <p className="empty-state">{t("noAppeals")}</p> : loaderData.appeals.map((a) => <AppealCard key={a.idAction} project={project} item={a} />)}
      </section>
      <GrantOperator project={project} />
      <VerificationGrants project={project} />
    </main>
  );
}

function useAct() {
  const { t } = useTranslation("moderation");
  const toast = useToast();
  const revalidator = useRevalidator();
  return async (call: () => Promise<Envelope<DecisionResult>>) => {
    const reply = await call();
    if (!isOk(reply)) return toast(errorText(t, reply), "error");
    toast(t("done"));
    await revalidator.revalidate();
  };
}

function CaseCard({ project, item }: { project: string; item: ModerationCase }) {
  const { t } = useTranslation("moderation");
  const act = useAct();
  const format = useFormat();
  const [hours, setHours] = useState<string>(String(SUSPENSION_HOURS[0]));
  const name = item.profile.nickname || item.profile.simpleCode;
  const weight = (n: number) => n.toFixed(1);
  return (
    <article className="card stack" aria-label={name}>
      <div className="entry-actions">
        <Avatar profile={item.profile} size={48} />
        <strong>{name}</strong>
        <span className="muted">#{item.profile.simpleCode}</span>
      </div>
      {item.reports.length > 0 && <p>{t("reports", { count: item.reports.length, weight: weight(item.reportWeight) })}</p>}
      {item.marks > 0 && <p>{t("marks", { count: item.marks, weight: weight(item.markWeight) })}</p>}
      {/* Other accounts sharing a sign-in signal (README Decisions "Block evasion and per-item reports"): numbers only. */}
      {item.relatedAccounts.count > 0 && (
        <p>{t("reporting:related", { count: item.relatedAccounts.count, memberNos: item.relatedAccounts.memberNos.map((no) => `#${no}`).join(", ") })}</p>
      )}
      {item.reports.length > 0 && (
        <ul className="stack">
          {item.reports.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: reports carry no id here and the list is read-only
            <li key={i}>
              {r.reason || t("noReason")} · <LocalTime value={r.dateAdd} />
            </li>
          ))}
        </ul>
      )}
      {item.suspendedIndefinitely && <p role="status">{t("suspendedIndefinitely")}</p>}
      {item.suspendedUntil && <p role="status">{t("suspendedUntil", { date: format.dateTime(item.suspendedUntil) })}</p>}
      <label className="field">
        <span>{t("duration")}</span>
        <select value={hours} onChange={(e) => setHours(e.target.value)}>
          {SUSPENSION_HOURS.map((h) => (
            <option key={h} value={String(h)}>
              {t(`hours_${h}`)}
            </option>
          ))}
          <option value="">{t("untilLifted")}</option>
        </select>
      </label>
      <div className="entry-actions">
        <button type="button" className="button button-danger" onClick={() => void act(() => moderation.decide(project, item.profile.simpleCode, { action: "suspend", hours: hours ? Number(hours) : null }))}>
          {t("suspend")}
        </button>
        <button type="button" className="button" onClick={() => void act(() => moderation.decide(project, item.profile.simpleCode, { action: "takedown" }))}>
          {t("takedown")}
        </button>
        <button type="button" className="button" onClick={() => void act(() => moderation.decide(project, item.profile.simpleCode, { action: "dismiss" }))}>
          {t("dismiss")}
        </button>
        {(item.suspendedUntil || item.suspendedIndefinitely) && (
          <button type="button" className="button button-primary" onClick={() => void act(() => moderation.decide(project, item.profile.simpleCode, { action: "lift" }))}>
            {t("lift")}
          </button>
        )}
      </div>
    </article>
  );
}

function AppealCard({ project, item }: { project: string; item: ModerationAppeal }) {
  const { t } = useTranslation("moderation");
  const act = useAct();
  const name = item.profile.nickname || item.profile.simpleCode;
  return (
    <article className="card stack" aria-label={name}>
      <div className="entry-actions">
        <Avatar profile={item.profile} size={48} />
        <strong>{name}</strong>
        <LocalTime value={item.appealedAt} />
      </div>
      <p>{t("appealOf", { action: t(`action_${item.action}`) })}</p>
      {item.appeal && <blockquote>{item.appeal}</blockquote>}
      <div className="entry-actions">
        <button type="button" className="button button-primary" onClick={() => void act(() => moderation.decideAppeal(project, item.idAction, true))}>
          {t("grant")}
        </button>
        <button type="button" className="button" onClick={() => void act(() => moderation.decideAppeal(project, item.idAction, false))}>
          {t("refuse")}
        </button>
      </div>
    </article>
  );
}

function GrantOperator({ project }: { project: string }) {
  const { t } = useTranslation("moderation");
  const toast = useToast();
  const [memberNo, setMemberNo] = useState("");
  async function grant(event: React.FormEvent) {
    event.preventDefault();
    const reply = await moderation.addOperator(project, memberNo.trim());
    if (!isOk(reply)) return toast(errorText(t, reply), "error");
    toast(t("operatorAdded", { memberNo: memberNo.trim() }));
    setMemberNo("");
  }
  return (
    <form className="card stack" onSubmit={(e) => void grant(e)}>
      <h2>{t("operators")}</h2>
      <label className="field">
        <span>{t("memberNo")}</span>
        <input inputMode="numeric" value={memberNo} onChange={(e) => setMemberNo(e.target.value)} required />
      </label>
      <button type="submit" className="button">
        {t("addOperator")}
      </button>
    </form>
  );
}

/**
 * README Decisions "Verification": the tenant's flame holder (the first one, or a new one) and the AI room
 * (kycStatus 9) are given by operators; the server refuses everyone else.
 */
function VerificationGrants({ project }: { project: string }) {
  const { t } = useTranslation("moderation");
  const toast = useToast();
  const [memberNo, setMemberNo] = useState("");
  const [holder, setHolder] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    let live = true;
    void social.lastFlame(project).then((body) => {
      if (live && isOk(body)) setHolder(body.info.profile ? body.info.profile.nickname || body.info.memberNo : null);
    });
    return () => {
      live = false;
    };
  }, [project]);

  async function run(call: (memberNo: string) => Promise<Envelope<unknown>>, done: string) {
    const no = memberNo.trim();
    if (!no) return;
    const reply = await call(no);
    if (!isOk(reply)) return toast(errorText(t, reply), "error");
    toast(t(done, { memberNo: no }));
    if (done === "flameHolderSet") setHolder(no);
    setMemberNo("");
  }

  const no = memberNo.trim();
  return (
    <section className="card stack" aria-labelledby="moderation-verification">
      <h2 id="moderation-verification">{t("verification")}</h2>
      <p className="muted">{holder ? t("flameHolderNow", { name: holder }) : holder === null ? t("noFlameHolder") : null}</p>
      <label className="field">
        <span>{t("memberNo")}</span>
        <input inputMode="numeric" value={memberNo} onChange={(e) => setMemberNo(e.target.value)} />
      </label>
      <div className="entry-actions">
        <button type="button" className="button" disabled={!no} onClick={() => void run((memberNo) => moderation.setFlameHolder(project, memberNo), "flameHolderSet")}>
          <Icon name="flame" className="icon-flame" /> {t("makeFlameHolder")}
        </button>
        <button type="button" className="button" disabled={!no} onClick={() => void run((memberNo) => moderation.grantAiRoom(project, memberNo), "aiRoomGranted")}>
          <Icon name="palette" /> {t("grantAiRoom")}
        </button>
      </div>
    </section>
  );
}
