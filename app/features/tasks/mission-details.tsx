import { useTranslation } from "react-i18next";
import type { Mission } from "../../../worker/contract/tasks";
import { MissionStatusChip } from "./mission-status";

/** What both the owner and the reviewer see of a mission. */
export function MissionDetails({ mission, showFeedback = true }: { mission: Mission; showFeedback?: boolean }) {
  const { t } = useTranslation("tasks");
  return (
    <section className="card stack" aria-label={t("mission.details")}>
      <div className="row">
        <h2 className="visually-hidden">{t("mission.details")}</h2>
        <MissionStatusChip status={mission.status} />
        {mission.profile && <span className="muted">{t("mission.by", { nickname: mission.profile.nickname || t("anonymous") })}</span>}
      </div>
      <div className="mission-section">
        <h2>{t("mission.task")}</h2>
        <p className="mission-text">{mission.taskDescription}</p>
      </div>
      {showFeedback && (
        <>
          <div className="mission-section">
            <h2>{t("mission.feedback")}</h2>
            <p className="mission-text">{mission.description || t("mission.noFeedback")}</p>
          </div>
          {mission.remark && (
            <div className="mission-section">
              <h2>{t("mission.remark")}</h2>
              <p className="mission-text">{mission.remark}</p>
            </div>
          )}
          {mission.cover && <img className="mission-cover" src={mission.cover} alt={t("mission.coverAlt", { subject: mission.subject })} />}
        </>
      )}
      {mission.reviewRemark && (
        <div className="mission-section">
          <h2>{t("mission.reviewRemark")}</h2>
          <p className="mission-text">{mission.reviewRemark}</p>
        </div>
      )}
    </section>
  );
}
