import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/mission";
import type { Envelope } from "../../worker/contract/envelope";
import { TASK_PATHS } from "../../worker/contract/tasks.constants";
import type { Mission } from "../../worker/contract/tasks";
import { useToast } from "../components/toast";
import { UploadProgress } from "../components/upload-progress";
import { MissionDetails } from "../features/tasks/mission-details";
import * as tasks from "../api/tasks-api";
import { uploadWithProgress } from "../lib/upload";
import { loadApi } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import { pageTitle } from "../i18n/page-title";
import "../features/tasks/tasks.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "tasks:mission.details") }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = Number(params.idMission);
  if (!Number.isInteger(id) || id < 1) throw new Response("Not found", { status: 404 });
  return { mission: await loadApi<Mission>(context, request, TASK_PATHS.mission(id), { private: true }) };
}

/** §2 mission/{idMission}: the owner edits feedback, cover and remark in P, saves, submits; back. */
export default function MissionPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("tasks");
  const toast = useToast();
  const [mission, setMission] = useState(loaderData.mission);
  const [description, setDescription] = useState(mission.description);
  const [remark, setRemark] = useState(mission.remark);
  const [busy, setBusy] = useState<null | "save" | "cover" | "submit">(null);
  const [coverProgress, setCoverProgress] = useState(0);
  const editable = mission.role === "owner" && mission.status === "P";

  async function run(kind: "save" | "cover" | "submit", call: () => Promise<Envelope<Mission>>, done: string) {
    setBusy(kind);
    const body = await call();
    setBusy(null);
    if ("info" in body) {
      setMission(body.info);
      toast(done, "success");
    } else toast(errorText(t, body), "error");
  }

  const save = () => run("save", () => tasks.saveMission(mission.idMission, description, remark), t("mission.saved"));
  const submit = () =>
    run(
      "submit",
      async () => {
        const saved = await tasks.saveMission(mission.idMission, description, remark);
        return "info" in saved ? tasks.submitMission(mission.idMission) : saved;
      },
      t("mission.submitted"),
    );
  function uploadCover(file: File) {
    const form = new FormData();
    form.set("id", String(mission.idMission));
    form.set("file", file);
    setCoverProgress(0);
    void run("cover", () => uploadWithProgress<Mission>(`/private${TASK_PATHS.cover}`, form, setCoverProgress), t("mission.coverSaved"));
  }

  return (
    <main className="page stack">
      <Link className="button back-link" to={`/${params.projectCode}/task/${mission.role === "owner" ? 1 : 2}`}>{t("back")}</Link>
      <h1>{mission.subject}</h1>
      <div className="mission-layout">
        <MissionDetails mission={mission} showFeedback={!editable} />
        {editable && (
          <form className="card form" onSubmit={(e) => { e.preventDefault(); void save(); }}>
            <label className="field">
              <span>{t("mission.feedback")}</span>
              <textarea rows={8} value={description} maxLength={4000} onChange={(e) => setDescription(e.target.value)} />
            </label>
            <label className="field">
              <span>{t("mission.remark")}</span>
              <input value={remark} maxLength={1000} onChange={(e) => setRemark(e.target.value)} />
            </label>
            <label className="field">
              <span>{t("mission.cover")}</span>
              <input type="file" accept="image/png,image/jpeg" disabled={busy !== null} onChange={(e) => e.target.files?.[0] && uploadCover(e.target.files[0])} />
            </label>
            {busy === "cover" && <UploadProgress value={coverProgress} />}
            {mission.cover && <img className="mission-cover" src={mission.cover} alt={t("mission.coverAlt", { subject: mission.subject })} />}
            <div className="row">
              <button type="submit" className="button" disabled={busy !== null}>{t("mission.save")}</button>
              <button type="button" className="button button-primary" disabled={busy !== null} onClick={() => void submit()}>
                {t("mission.submit")}
              </button>
            </div>
          </form>
        )}
        {mission.role === "reviewer" && mission.status === "F" && (
          <Link className="button button-primary" to={`/${params.projectCode}/review/${mission.idMission}`}>{t("openReview", { subject: mission.subject })}</Link>
        )}
      </div>
    </main>
  );
}
