import { useTranslation } from "react-i18next";
import type { CollectibleEdition } from "../../../worker/contract/collectibles.constants";

/** One numbered copy: the picture the server chose for this viewer ('' = nothing shown), its number and who holds it. */
export function CollectibleCard({ edition, children }: { edition: CollectibleEdition; children?: React.ReactNode }) {
  const { t } = useTranslation("collectibles");
  const label = t("edition", { serial: edition.serial, size: edition.editionSize });
  return (
    <li className="card collectible-card">
      {edition.image ? (
        <img className="collectible-image" src={edition.image} alt={label} loading="lazy" />
      ) : (
        <div className="collectible-image" role="img" aria-label={t("hiddenImage")}>
          {t("hiddenImage")}
        </div>
      )}
      <span className="collectible-serial">{label}</span>
      {edition.creator && <span className="muted">{t("by", { name: edition.creator.nickname || edition.creator.simpleCode })}</span>}
      {!edition.mine && <span className="muted">{t("ownedBy", { name: edition.owner?.nickname || edition.owner?.simpleCode || t("someone") })}</span>}
      {children}
    </li>
  );
}
