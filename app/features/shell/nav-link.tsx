import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import type { NavItem } from "./nav-items";
import { Icon, isIconName } from "../../components/icon";

export type NavDots = { social?: boolean; message?: boolean };

/** One link of the bottom or side navigation: icon, label and the unread dot (§2: green social, orange message). */
export function ShellNavLink({ projectCode, item, dots = {}, className, onClick }: { projectCode: string; item: NavItem; dots?: NavDots; className: string; onClick?: () => void }) {
  const { t } = useTranslation();
  const dot = item.dot && dots[item.dot] ? (item.dot === "social" ? "dot-green" : "dot-orange") : undefined;
  return (
    <NavLink to={`/${projectCode}/${item.path}`} className={className} onClick={onClick}>
      <span className="shell-nav-icon" aria-hidden="true">
        {isIconName(item.icon) ? <Icon name={item.icon} /> : item.icon}
        {dot && <span className={`dot ${dot}`} />}
      </span>
      <span className="shell-nav-label">{t(item.label)}</span>
      {dot && <span className="visually-hidden">{t("nav.unread")}</span>}
    </NavLink>
  );
}
