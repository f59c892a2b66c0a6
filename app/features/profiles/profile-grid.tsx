import { useRef } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { Avatar } from "../../components/avatar";
import { genderLabel } from "./profile-labels";
import { useNear } from "../../lib/when-near";

/** A phone's first row of three cards and one more: the first screen's largest pictures, preloaded with the page. */
const LARGEST = 4;

/**
 * Member cards: avatar (links to the public profile), nickname, role. `eager`: that many cards may be on a phone's
 * first screen, so their avatars are fetched with the document (a lazy one waits for layout, and the first screen's
 * largest paint with it). `firstScreen`: only that many cards render with the page; the others are empty boxes of a card's
 * size until they near the screen (hydrating every card of a long page was most of its blocking time).
 */
export function ProfileGrid({ profiles, label, eager = 0, firstScreen = Number.POSITIVE_INFINITY }: { profiles: ProfileSummary[]; label: string; eager?: number; firstScreen?: number }) {
  const { t } = useTranslation("profiles");
  const pending = useRef<HTMLLIElement>(null);
  // No margin: the card after the first screen sits just below a phone's fold, and a margin would render them all at once.
  const near = useNear(pending, "0px");
  if (profiles.length === 0) return <p className="empty-state">{t("common:empty")}</p>;
  const shown = near ? profiles.length : Math.min(firstScreen, profiles.length);
  return (
    <ul className="profile-grid" aria-label={label}>
      {profiles.map((p, i) => i >= shown ? (
        <li key={p.simpleCode} ref={i === shown ? pending : undefined} className="profile-card profile-card-pending" aria-hidden="true" />
      ) : (
        <li key={p.simpleCode} className="profile-card">
          <Avatar profile={p} size={72} link eager={i < eager && (i < LARGEST || "low")} />
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
