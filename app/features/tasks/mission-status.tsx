import { useTranslation } from "react-i18next";
import type { MissionStatus } from "../../../worker/contract/tasks";

/** §4 status P / F / C with its name in the member's language. */
export function MissionStatusChip({ status }: { status: MissionStatus }) {
  const { t } = useTranslation("tasks");
  return <span className={`status-chip status-${status}`}>{t(`status.${status}`)}</span>;
}
