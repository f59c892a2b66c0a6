import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import type { DnaReading, DnaReason } from "../../../worker/contract/dna";
import { dna } from "../../api/profiles-api";
import { readSession } from "../../lib/session-keys";
import { characterLabel, genderLabel } from "./profile-labels";

/** One reason in the viewer's language: the server sends a code and parameters, never a sentence. */
export function reasonText(t: TFunction, reason: DnaReason): string {
  const sign = (s: string) => t(`profiles:zodiac.${s}`);
  const element = (e: string) => t(`creator:dna.element.${e}`);
  const gender = (g: number) => genderLabel(t, g);
  switch (reason.code) {
    case "sameSign":
      return t("creator:dna.reason.sameSign", { sign: sign(reason.params.sign) });
    case "sameElement":
      return t("creator:dna.reason.sameElement", { element: element(reason.params.element), viewerSign: sign(reason.params.viewerSign), memberSign: sign(reason.params.memberSign) });
    case "complementaryElements":
      return t("creator:dna.reason.complementaryElements", { viewerElement: element(reason.params.viewerElement), memberElement: element(reason.params.memberElement) });
    case "differentElements":
      return t("creator:dna.reason.differentElements", { viewerElement: element(reason.params.viewerElement), memberElement: element(reason.params.memberElement) });
    case "zodiacUnknown":
      return t(`creator:dna.reason.zodiacUnknown.${reason.params.side}`);
    case "viewerSeeksMember":
      return t("creator:dna.reason.viewerSeeksMember", { role: gender(reason.params.memberGender) });
    case "memberSeeksViewer":
      return t("creator:dna.reason.memberSeeksViewer", { role: gender(reason.params.viewerGender) });
    case "rolesComplement":
      return t("creator:dna.reason.rolesComplement", { viewerRole: gender(reason.params.viewerGender), memberRole: gender(reason.params.memberGender) });
    case "switchFlexible":
      return t("creator:dna.reason.switchFlexible", { viewerRole: gender(reason.params.viewerGender), memberRole: gender(reason.params.memberGender) });
    case "sameRole":
      return t("creator:dna.reason.sameRole", { role: gender(reason.params.memberGender) });
    case "rolesUnknown":
      return t(`creator:dna.reason.rolesUnknown.${reason.params.side}`);
    case "sharedTags":
      return t("creator:dna.reason.sharedTags", {
        count: reason.params.count,
        tags: reason.params.tags.map((tag) => characterLabel(t, tag.title)).join(t("creator:dna.listSeparator")),
      });
    case "noSharedTags":
      return t("creator:dna.reason.noSharedTags");
  }
}

/**
 * Public profile: the DNA pairing reading between the signed-in viewer and this member (§7 family/dna; README
 * Decisions "DNA pairing and creator profiles"). Visitors are asked to log in; where the API says the reading is not
 * available (own profile, closed to the viewer, not an accepted follower) nothing is shown.
 */
export function DnaCard({ projectCode, memberNo }: { projectCode: string; memberNo: string }) {
  const { t } = useTranslation("creator");
  const [reading, setReading] = useState<DnaReading | null>(null);
  const [visitor, setVisitor] = useState(false);

  useEffect(() => {
    let live = true;
    if (!readSession()) {
      setVisitor(true);
      return;
    }
    void dna(projectCode, memberNo).then((body) => {
      if (live && "info" in body) setReading(body.info);
    });
    return () => {
      live = false;
    };
  }, [projectCode, memberNo]);

  if (visitor)
    return (
      <p className="muted">
        <Link to={`/${projectCode}/login`}>{t("dna.loginToSee")}</Link>
      </p>
    );
  if (!reading?.available) return null;
  return (
    <section className="card stack" aria-labelledby="dna-heading">
      <h2 id="dna-heading">{t("dna.heading")}</h2>
      <p className="dna-score">
        <meter min={0} max={100} value={reading.score} aria-labelledby="dna-score-text" />
        <span id="dna-score-text">{t("dna.score", { score: reading.score })}</span>
      </p>
      <ul className="dna-reasons" aria-label={t("dna.reasons")}>
        {reading.reasons.map((reason) => (
          // Each code appears at most once in a reading (worker/features/profiles/dna.ts).
          <li key={reason.code} data-reason={reason.code}>
            {reasonText(t, reason)}
          </li>
        ))}
      </ul>
    </section>
  );
}
