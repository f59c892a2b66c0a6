import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { Avatar } from "../../components/avatar";
import { useRestWhenNear } from "../../lib/use-rest-when-near";
import { profileHref } from "./profile-href";

/**
 * A horizontal strip of avatars linking to each profile (the shared Avatar: safe mode and visitor view, §6).
 * `more` is the whole list once the page has it: the strip shows it once it is on screen (useRestWhenNear).
 */
export function AvatarStrip({
  title,
  profiles: first,
  more,
  onNear,
  projectCode,
  extra,
}: { title: string; profiles: ProfileSummary[]; more?: ProfileSummary[]; onNear?: () => void; projectCode: string; extra?: React.ReactNode }) {
  const { t } = useTranslation("home");
  const [ref, profiles] = useRestWhenNear(first, more, (p) => p.simpleCode, onNear);
  const id = `strip-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="home-section" aria-labelledby={id} ref={ref}>
      <div className="home-section-head">
        <h2 id={id}>{title}</h2>
        {extra}
      </div>
      {profiles.length === 0 ? (
        <p className="muted">{t("strips.empty")}</p>
      ) : (
        <ul className="avatar-strip">
          {profiles.map((p) => (
            <li key={p.simpleCode}>
              <Link to={profileHref(projectCode, p.simpleCode)} className="avatar-strip-item">
                <Avatar profile={p} size={52} />
                <span className="avatar-strip-name">{p.nickname || p.simpleCode}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
