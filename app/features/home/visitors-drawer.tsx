import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Visitor } from "../../../worker/contract/home";
import { useFormat } from "../../i18n/use-format";
import { Avatar } from "../../components/avatar";
import { Dialog } from "../../components/dialog";
import { profileHref } from "./profile-href";

/** §2: a drawer listing visitors newest first with date and time. */
export function VisitorsDrawer({ visitors, projectCode }: { visitors: Visitor[]; projectCode: string }) {
  const { t } = useTranslation("home");
  const format = useFormat();
  return (
    <Dialog
      className="drawer"
      trigger={
        <button type="button" className="link-button">
          {t("strips.visitorsAll")}
        </button>
      }
      title={t("visitorsDrawer.title")}
      description={t("visitorsDrawer.title")}
      descriptionClassName="visually-hidden"
      closeLabel={t("common:close")}
    >
      {visitors.length === 0 ? (
        <p className="empty-state">{t("visitorsDrawer.empty")}</p>
      ) : (
        <ul className="visitor-list">
          {visitors.map((v) => (
            <li key={v.simpleCode}>
              <Link to={profileHref(projectCode, v.simpleCode)} className="visitor-row">
                <Avatar profile={v.profile} size={40} />
                <span className="visitor-name">{v.nickname}</span>
                <time dateTime={v.dateUpd} className="muted small">
                  {t("visitorsDrawer.visitedAt", { when: format.dateTime(v.dateUpd) })}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
