import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/review";
import { TASK_PATHS } from "../../worker/contract/tasks.constants";
import type { Mission } from "../../worker/contract/tasks";
import { useToast } from "../components/toast";
import { MissionDetails } from "../features/tasks/mission-details";
import * as tasks from "../api/tasks-api";
import { loadApi } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import { pageTitle } from "../i18n/page-title";
import "../features/tasks/tasks.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "tasks:tabs.review") }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = Number(params.idMission);
  if (!Number.isInteger(id) || id < 1) throw new Response("Not found", { status: 404 });
  return { mission: await loadApi<Mission>(context, request, TASK_PATHS.mission(id), { private: true }) };
}

/** §2 review/{idMission}: the task's creator sees the mission, gives a remark and confirms (F → C). */
export default function ReviewPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("tasks");
  const toast = useToast();
  const [mission, setMission] = useState(loaderData.mission);
  const [remark, setRemark] = useState("");
  const [busy, setBusy] = useState(false);
  const canConfirm = mission.role === "reviewer" && mission.status === "F";

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = await tasks.confirmMission(mission.idMission, remark);
    setBusy(false);
    if ("info" in body) {
      setMission(body.info);
      toast(t("review.confirmed"), "success");
    } else toast(errorText(t, body), "error");
  }

  return (
    <main className="page stack">
      <Link className="button back-link" to={`/${params.projectCode}/task/2`}>{t("back")}</Link>
      <h1>{t("review.title", { subject: mission.subject })}</h1>
      <div className="mission-layout">
        <MissionDetails mission={mission} />
        {canConfirm ? (
          <form className="card form" onSubmit={confirm}>
            <label className="field">
              <span>{t("review.remark")}</span>
              <textarea rows={5} value={remark} maxLength={1000} onChange={(e) => setRemark(e.target.value)} />
            </label>
            <button type="submit" className="button button-primary" disabled={busy}>{t("review.confirm")}</button>
          </form>
        ) : (
          <p className="card muted">{mission.status === "P" ? t("review.notYet") : mission.status === "C" ? t("review.done") : t("review.notReviewer")}</p>
        )}
      </div>
    </main>
  );
}
