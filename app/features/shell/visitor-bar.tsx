import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** §6 visitors: every public page says how to join, at the top, before anything a visitor might tap. */
export function VisitorBar({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("shell");
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a page-level header is the banner landmark, which a label names
    <header className="visitor-bar" aria-label={t("visitor.label")}>
      <Link to={`/${projectCode}/profiles`} className="visitor-bar-brand">
        {t("common:appName")}
      </Link>
      <p className="visitor-bar-text">{t("visitor.bar")}</p>
      <div className="visitor-bar-actions">
        <Link className="button" to={`/${projectCode}/login`}>
          {t("visitor.login")}
        </Link>
        <Link className="button button-primary" to={`/${projectCode}/registration`}>
          {t("visitor.signUp")}
        </Link>
      </div>
    </header>
  );
}
