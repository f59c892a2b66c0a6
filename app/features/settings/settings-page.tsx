import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ContactSettings } from "../../../worker/contract/chat";
import type { ReferralInfo } from "../../../worker/contract/session";
import type { BlockItem, MuteItem, SocialSettings } from "../../../worker/contract/social";
import { PrivacyControls } from "../privacy/privacy-controls";
import { AlertsSection } from "./alerts-section";
import { ConnectionsSection } from "../safety/connections-section";
import { ContactSection } from "./contact-section";
import { InviteSection } from "./invite-section";
import { LanguageSection } from "./language-section";
import { MutedWordsSection } from "../safety/muted-words-section";
import { PasswordSection } from "./password-section";
import { QuietHoursSection } from "./quiet-hours-section";
import { RequestsFiltersSection } from "../safety/requests-filters-section";
import { SafetyLists } from "./safety-lists";
import { FollowApprovalSection } from "./follow-approval-section";
import { StrangerMediaSection } from "./stranger-media-section";
import { E2eDevicesSection } from "./e2e-devices-section";
import "./settings.css";

export type SettingsData = {
  profile: { memberId: string; safeMode: boolean; muted: boolean };
  contact: ContactSettings;
  social: SocialSettings;
  referral: ReferralInfo;
  blocks: BlockItem[];
  mutes: MuteItem[];
};

/** Everything a member sets about their account, in one place (README Decisions "Settings in one place"). */
export function SettingsPage({ projectCode, data }: { projectCode: string; data: SettingsData }) {
  const { t } = useTranslation("settings");
  return (
    <main className="page stack settings-page">
      <div className="section-head">
        <h1>{t("title")}</h1>
        <Link className="button" to={`/${projectCode}/profile`}>
          {t("backToProfile")}
        </Link>
      </div>
      <PasswordSection memberId={data.profile.memberId} />
      <LanguageSection />
      <AlertsSection memberId={data.profile.memberId} initial={{ safeMode: data.profile.safeMode, muted: data.profile.muted, emailAlerts: data.social.emailAlerts }} />
      <QuietHoursSection memberId={data.profile.memberId} />
      <ContactSection initial={data.contact} />
      <InviteSection projectCode={projectCode} referral={data.referral} />
      <FollowApprovalSection memberId={data.profile.memberId} />
      <ConnectionsSection memberId={data.profile.memberId} />
      <RequestsFiltersSection />
      <StrangerMediaSection memberId={data.profile.memberId} />
      <MutedWordsSection />
      <E2eDevicesSection />
      <SafetyLists blocks={data.blocks} mutes={data.mutes} />
      <PrivacyControls projectCode={projectCode} />
    </main>
  );
}
