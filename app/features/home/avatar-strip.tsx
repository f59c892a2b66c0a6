import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { Avatar } from "../../components/avatar";

/** A public profile page of a member (§2: the code comes from query c). */
export const profileHref = (projectCode: string, simpleCode: string) => `/${projectCode}/s?c=${encodeURIComponent(simpleCode)}`;

/** A horizontal strip of avatars linking to each profile (the shared Avatar: safe mode and visitor view, §6). */
export function AvatarStrip({
  title,
  profiles,
  projectCode,
  extra,
  ref,
}: { title: string; profiles: ProfileSummary[]; projectCode: string; extra?: React.ReactNode; ref?: React.Ref<HTMLElement> }) {
  const { t } = useTranslation("home");
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
