import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Banner, Character, OwnProfile } from "../../../worker/contract/profiles";
import { setSafeMode } from "../../components/avatar";
import { Dialog, DialogClose } from "../../components/dialog";
import { TOAST_DURATION, useToast } from "../../components/toast";
import { MemberChatMessages } from "../chat/member-chat-messages";
import { ProfileSubmembers } from "../market/profile-submembers";
import { useLogout } from "../session/use-logout";
import { MySocialLists } from "../social/my-social-lists";
import { MyAvatarSection } from "./my-avatar-section";
import { MyCharactersSection } from "./my-characters-section";
import { MyDetailsForm } from "./my-details-form";
import { MyPhotosSection } from "./my-photos-section";
import { MyRoleSection } from "./my-role-section";
import { MySwitchesSection } from "./my-switches-section";
import { SharePanel } from "./share-panel";
import { CreatorProfileEditor } from "./creator-profile-editor";
import { LineSection } from "../line/line-section";
import { useProfileEditor } from "./use-profile-editor";

const APP_VERSION = "1.0.0";

/**
 * The My profile page: one section component per part of the profile, in page order, sharing one editor
 * (`useProfileEditor`). A feature that belongs here adds one line rendering its own section.
 */
export function MyProfile({
  projectCode,
  initial,
  characters: initialCharacters,
  banners: initialBanners,
  operator = false,
}: {
  projectCode: string;
  initial: OwnProfile;
  characters: Character[];
  banners: Banner[];
  /** An operator of this tenant sees the way to the moderation queue (README Decisions "Moderation"). */
  operator?: boolean;
}) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const logout = useLogout(projectCode);
  const editor = useProfileEditor(initial);
  const { profile } = editor;
  const [shareOpen, setShareOpen] = useState(false);

  // The server's switch is the truth (it decides whether others' originals reach this member); the page's copy follows it.
  useEffect(() => setSafeMode(initial.safeMode), [initial.safeMode]);
  useEffect(() => {
    // §8: members whose avatar is unqualified cannot see others' avatars (90 s notice).
    if (initial.avator && !initial.qualify) toast(t("errors:403206"), "long", TOAST_DURATION.long);
  }, [initial.avator, initial.qualify, t, toast]);

  return (
    <main className="page stack">
      <div className="section-head">
        <h1>{t("my.title")}</h1>
        <div className="row">
          {/* Password, language, alerts, who may reach me, invites, blocks and mutes, my data: README "Settings in one place". */}
          <Link className="button" to={`/${projectCode}/settings`}>
            {t("settings:open")}
          </Link>
          <Link className="button" to={`/${projectCode}/collectibles`}>
            {t("collectibles:open")}
          </Link>
          <Link className="button" to={`/${projectCode}/lottery`}>
            {t("collectibles:lottery.open")}
          </Link>
          <button type="button" className="button" onClick={() => setShareOpen(true)}>
            {t("share.open")}
          </button>
        </div>
      </div>

      {profile.unqualifiedCount > 10 && (
        <p className="notice" role="status">
          {t("unqualifiedReminder", { count: profile.unqualifiedCount, limit: 20 })}
        </p>
      )}

      <MyAvatarSection projectCode={projectCode} editor={editor} />
      <MyRoleSection editor={editor} />
      <MySwitchesSection editor={editor} />
      <MyCharactersSection memberId={profile.memberId} initial={initialCharacters} />
      <MyDetailsForm editor={editor} />
      <CreatorProfileEditor projectCode={projectCode} memberId={profile.memberId} memberNo={profile.simpleCode} />
      <MyPhotosSection projectCode={projectCode} editor={editor} initial={initialBanners} onShare={() => setShareOpen(true)} />

      <MySocialLists projectCode={projectCode} />
      <ProfileSubmembers projectCode={projectCode} memberNo={profile.simpleCode} multiGender={profile.multiGender} />
      <MemberChatMessages projectCode={projectCode} memberNo={profile.simpleCode} />
      <LineSection projectCode={projectCode} />

      {operator && (
        <Link className="button" to={`/${projectCode}/moderation`}>
          {t("moderation:link")}
        </Link>
      )}
      <button type="button" className="button button-danger" onClick={() => void logout()}>
        {t("common:logout")}
      </button>
      <p className="version">{t("version", { version: APP_VERSION })}</p>

      <Dialog open={shareOpen} onOpenChange={setShareOpen} title={t("share.title")} description={t("share.description")} returnFocus>
        <SharePanel projectCode={projectCode} memberNo={profile.simpleCode} nickname={profile.nickname} />
        <div className="dialog-actions">
          <DialogClose>{t("common:close")}</DialogClose>
        </div>
      </Dialog>
    </main>
  );
}
