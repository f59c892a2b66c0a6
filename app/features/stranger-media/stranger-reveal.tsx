import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { Avatar } from "../../components/avatar";
import { useToast } from "../../components/toast";
import { revealPhoto } from "../../lib/reveal-photo";
import { revealAvatar } from "../../api/stranger-media-api";

/** The Settings card blurred items link to (README Decisions "Stranger media stays blurred"). */
export function StrangerSettingsLink() {
  const { t } = useTranslation("stranger");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  return (
    <Link className="stranger-settings-link" to={`/${projectCode}/settings#stranger-media`}>
      {t("settingsLink")}
    </Link>
  );
}

/** "Reveal" for one item: asks the server (which re-checks the viewer) and hands the answer up; nothing is stored. */
export function RevealButton({ name, onReveal }: { name: string; onReveal: () => Promise<boolean> }) {
  const { t } = useTranslation("stranger");
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button small stranger-reveal"
      disabled={busy}
      aria-label={t("revealOf", { name })}
      onClick={async () => {
        setBusy(true);
        if (!(await onReveal())) toast(t("revealFailed"), "error");
        setBusy(false);
      }}
    >
      {t("reveal")}
    </button>
  );
}

/** A photo's original after a one-tap reveal (the §9 reveal route, which re-checks blocks and closed profiles). */
export async function revealedPhoto(idBanner: number): Promise<string | null> {
  const body = await revealPhoto(idBanner);
  return "info" in body ? body.info.image : null;
}

/**
 * A member's avatar with a per-item reveal while it arrives blurred: the server answers the avatar as this viewer
 * would get it with the stranger setting off (a `blur` member or the viewer's safe mode still decide). The revealed
 * URL lives in this component's state only, so it is forgotten when the page is left.
 */
export function RevealableAvatar({ profile, size = 40, link = true }: { profile: ProfileSummary; size?: number; link?: boolean }) {
  const [shown, setShown] = useState(profile);
  const name = profile.nickname || profile.simpleCode;
  return (
    <span className="stranger-avatar">
      <Avatar profile={shown} size={size} link={link} />
      {shown.blur && shown.avator && (
        <RevealButton
          name={name}
          onReveal={async () => {
            const body = await revealAvatar(profile.simpleCode);
            if (!("info" in body) || body.info.blur) return false;
            setShown({ ...shown, avator: body.info.avator, blur: false });
            return true;
          }}
        />
      )}
    </span>
  );
}
