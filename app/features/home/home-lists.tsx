import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { HOME_LIMITS, fairPick } from "../../../worker/contract/home.constants";
import type { HomeDashboard as Dashboard } from "../../../worker/contract/home";
import { Avatar } from "../../components/avatar";
import { useRestWhenNear } from "../../lib/use-rest-when-near";
import { profileHref } from "./profile-href";

// Home's member lists under the strips: the hot wall and grid, and members' introductions.

/**
 * §9: the wall shows 5 random hot profiles, drawn after hydration so server and client render alike. Its own
 * component, so the draw re-renders five avatars and not the whole dashboard (~0.2 s on a throttled phone).
 */
export function HotWall({ hotProfiles, projectCode }: { hotProfiles: Dashboard["hotProfiles"]; projectCode: string }) {
  const { t } = useTranslation("home");
  const [wall, setWall] = useState(() => hotProfiles.slice(0, HOME_LIMITS.wall));
  useEffect(() => {
    const pool = [...hotProfiles];
    const out: typeof pool = [];
    while (pool.length > 0 && out.length < HOME_LIMITS.wall) out.push(pool.splice(fairPick(pool.length), 1)[0]!);
    // Below the first screen: never worth a blocking render while the page hydrates.
    startTransition(() => setWall(out));
  }, [hotProfiles]);
  return (
    <section className="home-section" aria-labelledby="wall-title">
      <div className="home-section-head">
        <h2 id="wall-title">{t("wall.title")}</h2>
        <Link to={`/${projectCode}/avatar-wall`} className="link-button">
          {t("wall.open")}
        </Link>
      </div>
      <ul className="wall">
        {wall.map((w) => (
          <li key={w.simpleCode}>
            <Link to={profileHref(projectCode, w.simpleCode)}>
              <Avatar profile={w} size={64} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** §9 hot profiles as a grid; the rest of them shows when the grid comes on screen. */
export function HotGrid({ first, more, onNear, projectCode }: { first: Dashboard["hotProfiles"]; more?: Dashboard["hotProfiles"]; onNear?: () => void; projectCode: string }) {
  const { t } = useTranslation("home");
  const [ref, hotProfiles] = useRestWhenNear(first, more, (h) => h.simpleCode, onNear);
  return (
    <section className="home-section" aria-labelledby="hot-title" ref={ref}>
      <h2 id="hot-title">{t("hot.title")}</h2>
      {hotProfiles.length === 0 && <p className="muted">{t("hot.empty")}</p>}
      <ul className="hot-grid">
        {hotProfiles.map((h) => (
          <li key={h.simpleCode}>
            <Link to={profileHref(projectCode, h.simpleCode)} className="hot-card">
              <Avatar profile={h} size={72} />
              <span className="avatar-strip-name">{h.nickname}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Members' introductions as cards; the rest of them shows when the cards come on screen. */
export function NoteCards({ first, more, onNear, projectCode }: { first: Dashboard["notes"]; more?: Dashboard["notes"]; onNear?: () => void; projectCode: string }) {
  const { t } = useTranslation("home");
  const [ref, notes] = useRestWhenNear(first, more, (n) => n.profile.simpleCode, onNear);
  return (
    <section className="home-section" aria-labelledby="notes-title" ref={ref}>
      <h2 id="notes-title">{t("notes.title")}</h2>
      {notes.length === 0 && <p className="muted">{t("notes.empty")}</p>}
      <ul className="note-cards">
        {notes.map((n) => (
          <li key={n.profile.simpleCode} className="note-card card">
            {/* The link holds only the nickname it is named by, so its name is the text it shows (WCAG 2.5.3); the
                introduction beside it is its description, and the link's hit area covers the whole card (CSS). */}
            <Link to={profileHref(projectCode, n.profile.simpleCode)} className="note-card-link row" aria-describedby={`note-text-${n.profile.simpleCode}`}>
              <Avatar profile={n.profile} size={32} decorative />
              <strong>{n.profile.nickname}</strong>
            </Link>
            <p className="note-text" id={`note-text-${n.profile.simpleCode}`}>
              {n.introduction}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
