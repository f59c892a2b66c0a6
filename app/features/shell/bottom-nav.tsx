import { memo } from "react";
import { useTranslation } from "react-i18next";
import { MEMBER_TABS, VISITOR_TABS } from "./nav-items";
import { MoreMenu } from "./more-menu";
import { ShellNavLink, type NavDots } from "./nav-link";

export type { NavDots } from "./nav-link";

/**
 * §2 bottom navigation (phones and tablets; desktop widths use the side navigation): market, social (green dot),
 * home, message (orange dot), profile and More. A visitor gets the public pages instead (§6).
 */
export const BottomNav = memo(function BottomNav({ projectCode, dots = {}, signedIn = true }: { projectCode: string; dots?: NavDots; signedIn?: boolean }) {
  const { t } = useTranslation();
  const tabs = signedIn ? MEMBER_TABS : VISITOR_TABS;
  return (
    <nav className={signedIn ? "bottom-nav" : "bottom-nav bottom-nav-visitor"} aria-label={t("nav.label")}>
      {tabs.map((tab) => (
        <ShellNavLink key={tab.path} projectCode={projectCode} item={tab} dots={dots} className="bottom-nav-tab" />
      ))}
      {signedIn && <MoreMenu projectCode={projectCode} />}
    </nav>
  );
});
