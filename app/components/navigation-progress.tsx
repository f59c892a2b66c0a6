import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";

/** A quick navigation shows nothing; one that takes longer than this shows the bar. */
const SHOW_AFTER_MS = 150;

/** A thin bar across the top while React Router loads the next page (loaders, lazy route modules, form posts). */
export function NavigationProgress() {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) return setVisible(false);
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  if (!visible) return null;
  return (
    <div className="nav-progress" role="progressbar" aria-label={t("pageLoading")}>
      <span className="nav-progress-bar" />
    </div>
  );
}
