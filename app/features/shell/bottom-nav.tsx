import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";

export type NavDots = { social?: boolean; message?: boolean };

/** §2 bottom navigation: market, social (green dot), home, message (orange dot), profile. */
export function BottomNav({ projectCode, dots = {} }: { projectCode: string; dots?: NavDots }) {
  const { t } = useTranslation();
  const tabs = [
    { to: "market", label: t("nav.market"), icon: "⚖" },
    { to: "notification", label: t("nav.social"), icon: "💬", dot: dots.social ? "dot-green" : undefined },
    { to: "home", label: t("nav.home"), icon: "⌂" },
    { to: "message", label: t("nav.message"), icon: "✉", dot: dots.message ? "dot-orange" : undefined },
    { to: "profile", label: t("nav.profile"), icon: "☺" },
  ];
  return (
    <nav className="bottom-nav" aria-label={t("nav.label")}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={`/${projectCode}/${tab.to}`} className="bottom-nav-tab">
          <span className="bottom-nav-icon" aria-hidden="true">
            {tab.icon}
            {tab.dot && <span className={`dot ${tab.dot}`} />}
          </span>
          <span className="bottom-nav-label">{tab.label}</span>
          {tab.dot && <span className="visually-hidden">{t("nav.unread")}</span>}
        </NavLink>
      ))}
    </nav>
  );
}
