import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import type { Mission, Task } from "../../../worker/contract/tasks";
import { Avatar } from "../../components/avatar";
import { LocalTime } from "../../i18n/use-format";
import { MissionStatusChip } from "./mission-status";
import { TakeUpDialog } from "./task-dialogs";

/** The other party of a task or mission: the shared Avatar (safe mode, blur, not-appropriate avatar; §6). */
function Author({ profile }: { profile: ProfileSummary }) {
  const { t } = useTranslation("tasks");
  return (
    <span className="task-meta">
      <Avatar profile={profile} size={28} />
      <span>{profile.nickname || t("anonymous")}</span>
    </span>
  );
}

/** Tab 0: all tasks. */
export function AllTasks({ tasks, projectCode, onChanged }: { tasks: Task[]; projectCode: string; onChanged: () => void }) {
  const { t } = useTranslation("tasks");
  if (tasks.length === 0) return <p className="empty-state">{t("empty.all")}</p>;
  return (
    <ul className="tasks-list">
      {tasks.map((task) => (
        <li key={task.idTask} className="card task-card">
          <h3>{task.subject}</h3>
          <p>{task.description}</p>
          <div className="task-meta">
            {task.profile && <Author profile={task.profile} />}
            <LocalTime value={task.timelog} preset="date" />
          </div>
          <div className="row">
            {task.mine ? (
              <span className="muted">{t("yourTask")}</span>
            ) : task.idMission ? (
              <Link className="button" to={`/${projectCode}/mission/${task.idMission}`}>{t("openMission")}</Link>
            ) : (
              <TakeUpDialog task={task} projectCode={projectCode} onTaken={onChanged} />
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Tab 1 (my missions) and tab 2 (missions to review). */
export function MissionList({ missions, projectCode, mode }: { missions: Mission[]; projectCode: string; mode: "mine" | "review" }) {
  const { t } = useTranslation("tasks");
  if (missions.length === 0) return <p className="empty-state">{t(mode === "mine" ? "empty.mine" : "empty.review")}</p>;
  return (
    <ul className="tasks-list">
      {missions.map((m) => {
        const other = mode === "mine" ? m.reviewer : m.profile;
        return (
          <li key={m.idMission} className="card task-card">
            <div className="row">
              <h3>{m.subject}</h3>
              <MissionStatusChip status={m.status} />
            </div>
            {other && <Author profile={other} />}
            <div className="row">
              <Link className="button" to={`/${projectCode}/${mode === "mine" ? "mission" : "review"}/${m.idMission}`}>
                {mode === "mine" ? t("openMission") : t("openReview", { subject: m.subject })}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
