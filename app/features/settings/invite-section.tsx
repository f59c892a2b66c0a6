import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReferralInfo } from "../../../worker/contract/session";
import { useToast } from "../../components/toast";
import { referralPath } from "./referral-link";


/**
 * §7 referral sign-up: the member's own link opens registration with their code filled in; whoever signs up through
 * it joins this tenant and is counted. The code names nobody: only its owner can read it (`/core/members/{id}/referral`).
 */
export function InviteSection({ projectCode, referral }: { projectCode: string; referral: ReferralInfo }) {
  const { t } = useTranslation("settings");
  const toast = useToast();
  // The page's own origin, known in the browser only (the server render shows the path until then).
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const link = `${origin}${referralPath(projectCode, referral.referralCode)}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("invite.copied"), "copied");
    } catch {
      toast(t("invite.copyFailed"), "error");
    }
  }

  return (
    <section className="card" aria-labelledby="settings-invite">
      <h2 id="settings-invite">{t("invite.title")}</h2>
      <p className="settings-lead">{t("invite.lead")}</p>
      <div className="settings-link">
        <input readOnly value={link} aria-label={t("invite.link")} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          {t("invite.copy")}
        </button>
      </div>
      <p className="settings-lead">{t("invite.count", { count: referral.referralCount })}</p>
    </section>
  );
}
