import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreatorProfile } from "../../../worker/contract/creator";
import { creatorProfile } from "../../api/profiles-api";

/** Links members add themselves: opened in a new tab with no opener, no referrer, no ranking credit (README Decisions). */
export const CREATOR_LINK_REL = "noopener noreferrer nofollow ugc";

/**
 * Public profile: the member's creator profile (§3; README Decisions "DNA pairing and creator profiles"), read as
 * the viewer may see it (the API answers null for a closed profile, renditions of logos for visitors). Nothing is
 * shown when there is none.
 */
export function CreatorCard({ projectCode, memberNo }: { projectCode: string; memberNo: string }) {
  const { t } = useTranslation("creator");
  const [creator, setCreator] = useState<CreatorProfile | null>(null);

  useEffect(() => {
    let live = true;
    void creatorProfile(projectCode, memberNo).then((body) => {
      if (live) setCreator("info" in body ? body.info : null);
    });
    return () => {
      live = false;
    };
  }, [projectCode, memberNo]);

  if (!creator) return null;
  const role = [creator.title, creator.company].filter(Boolean).join(" · ");
  return (
    <section className="card stack" aria-labelledby="creator-card-heading">
      <h2 id="creator-card-heading">{t("card.heading")}</h2>
      {role && <p className="creator-role">{role}</p>}
      {creator.location && <p className="muted">{t("card.location", { location: creator.location })}</p>}
      {creator.introduction && <p className="intro-text">{creator.introduction}</p>}
      {creator.websiteUrl && (
        <a className="chip" href={creator.websiteUrl} rel={CREATOR_LINK_REL} target="_blank">
          {t("card.website")}
        </a>
      )}
      {creator.links.length > 0 && (
        <ul className="creator-link-list" aria-label={t("card.links")}>
          {creator.links.map((link) => (
            <li key={`${link.url} ${link.title}`}>
              <a className="creator-link" href={link.url} rel={CREATOR_LINK_REL} target="_blank">
                {link.logo && <img className={`creator-logo ${link.logoBlur ? "is-blurred" : ""}`} src={link.logo} alt="" width={32} height={32} loading="lazy" />}
                <span>{link.title || new URL(link.url).hostname}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
