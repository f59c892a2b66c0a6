import { useTranslation } from "react-i18next";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { Avatar } from "../../components/avatar";
import { genderLabel } from "./profile-labels";

/** Member cards: avatar (links to the public profile), nickname, role. `eager`: the first cards are on the first screen. */
export function ProfileGrid({ profiles, label, eager = 0 }: { profiles: ProfileSummary[]; label: string; eager?: number }) {
  const { t } = useTranslation("profiles");
  if (profiles.length === 0) return <p className="empty-state">{t("common:empty")}</p>;
  return (
    <ul className="profile-grid" aria-label={label}>
      {profiles.map((p, i) => (
        <li key={p.simpleCode} className="profile-card">
          <Avatar profile={p} size={72} link eager={i < eager} />
          <span className="profile-card-name">{p.nickname || t("avatar.unnamed", { code: p.simpleCode })}</span>
          <span className="profile-card-role">{genderLabel(t, p.multiGender)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A horizontal avatar strip (lists on the public profile and the feed). */
export function ProfileStrip({ profiles, label }: { profiles: ProfileSummary[]; label: string }) {
  const { t } = useTranslation("profiles");
  if (profiles.length === 0) return null;
  return (
    <section className="section strip-section">
      <h2>{label}</h2>
      <ul className="strip" aria-label={label}>
        {profiles.map((p) => (
          <li key={p.simpleCode}>
            <Avatar profile={p} size={52} link />
            <span className="name">{p.nickname || t("avatar.unnamed", { code: p.simpleCode })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
