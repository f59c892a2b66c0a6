import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";

/** A public profile page of a member (§2: the code comes from query c). */
export const profileHref = (projectCode: string, simpleCode: string) => `/${projectCode}/s?c=${encodeURIComponent(simpleCode)}`;

/** Avatar image or a lettered placeholder; blurred avatars stay blurred (§6). */
export function Avatar({ profile, size = 48 }: { profile: ProfileSummary; size?: number }) {
  const { t } = useTranslation("home");
  const name = profile.nickname || t("avatar.noName", { code: profile.simpleCode });
  if (!profile.avator) {
    return (
      <span className="home-avatar-placeholder avatar" style={{ width: size, height: size }} role="img" aria-label={t("avatar.of", { name })}>
        {name.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className={`avatar${profile.blur ? " blurred-soft" : ""}`}
      src={profile.avator}
      alt={t("avatar.of", { name })}
      width={size}
      height={size}
      loading="lazy"
    />
  );
}

/** A horizontal strip of avatars linking to each profile. */
export function AvatarStrip({ title, profiles, projectCode, extra }: { title: string; profiles: ProfileSummary[]; projectCode: string; extra?: React.ReactNode }) {
  const { t } = useTranslation("home");
  const id = `strip-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="home-section" aria-labelledby={id}>
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
