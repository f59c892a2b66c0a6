import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogClose } from "../../components/dialog";
import { usePersonalRoomId } from "./personal-room";
import { memberGroups, type NavGroup } from "./nav-items";
import { ShellNavLink } from "./nav-link";
import { useMyMemberNo } from "./viewer";

/** The grouped list of every other screen: inside the phone's More sheet and in the desktop side navigation. */
export function NavGroups({ projectCode, groups, onNavigate }: { projectCode: string; groups: NavGroup[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {groups.map((group) => (
        // Not headings: the navigation comes before the page's own h1 (side) or sits in a dialog with its title.
        <div key={group.label} className="shell-nav-group">
          <p className="shell-nav-group-title" aria-hidden="true">
            {t(group.label)}
          </p>
          <ul aria-label={t(group.label)}>
            {group.items.map((item) => (
              <li key={item.path}>
                <ShellNavLink projectCode={projectCode} item={item} className="shell-nav-row" onClick={onNavigate} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/**
 * §2 names six bottom tabs and lists five: the sixth, More, opens a sheet with every other screen, so any §2 screen
 * is at most two taps away on a phone.
 */
export function MoreMenu({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("shell");
  const [open, setOpen] = useState(false);
  const personalRoomId = usePersonalRoomId(useMyMemberNo());
  return (
    <Dialog
      className="dialog more-sheet"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="bottom-nav-tab">
          <span className="shell-nav-icon" aria-hidden="true">
            ☰
          </span>
          <span className="shell-nav-label">{t("nav.more")}</span>
        </button>
      }
      title={t("nav.moreTitle")}
      description={t("nav.moreHint")}
      descriptionClassName="muted"
    >
      <nav aria-label={t("nav.moreTitle")} className="more-sheet-groups">
        <NavGroups projectCode={projectCode} groups={memberGroups(personalRoomId)} onNavigate={() => setOpen(false)} />
      </nav>
      <div className="dialog-actions">
        <DialogClose>{t("common:close")}</DialogClose>
      </div>
    </Dialog>
  );
}
