import { memo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePersonalRoomId } from "./personal-room";
import { MEMBER_TABS, VISITOR_TABS, memberGroups } from "./nav-items";
import { NavGroups } from "./more-menu";
import { ShellNavLink, type NavDots } from "./nav-link";
import { useMyMemberNo } from "./viewer";

/**
 * Desktop widths (≥ 1024 px, shell.css): the same destinations as the bottom bar and its More sheet, all in one
 * column at the left, so the page keeps the rest of the width. Hidden (not rendered for assistive tech) on phones.
 */
export const SideNav = memo(function SideNav({ projectCode, dots = {}, signedIn = true }: { projectCode: string; dots?: NavDots; signedIn?: boolean }) {
  const { t } = useTranslation();
  const personalRoomId = usePersonalRoomId(useMyMemberNo());
  return (
    <nav className="side-nav" aria-label={t("nav.label")}>
      <Link to={`/${projectCode}/${signedIn ? "home" : "profiles"}`} className="side-nav-brand">
        {t("appName")}
      </Link>
      <ul className="side-nav-primary">
        {(signedIn ? MEMBER_TABS : VISITOR_TABS).map((tab) => (
          <li key={tab.path}>
            <ShellNavLink projectCode={projectCode} item={tab} dots={dots} className="shell-nav-row" />
          </li>
        ))}
      </ul>
      {signedIn ? (
        <NavGroups projectCode={projectCode} groups={memberGroups(personalRoomId)} />
      ) : (
        <div className="side-nav-visitor">
          <Link className="button" to={`/${projectCode}/login`}>
            {t("shell:visitor.login")}
          </Link>
          <Link className="button button-primary" to={`/${projectCode}/registration`}>
            {t("shell:visitor.signUp")}
          </Link>
        </div>
      )}
    </nav>
  );
});
