import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { OwnProfile } from "../../../worker/contract/profiles";
import { useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import * as profiles from "../../api/profiles-api";

export type ProfilePatchInput = Partial<OwnProfile> & { coordinates?: string; language?: string };

/**
 * The My profile page's one copy of the member's profile, shared by its sections: `save` PATCHes and takes the server's
 * answer as the new state; `busy` is set while a save or an upload runs (the sections' buttons wait for it).
 */
export function useProfileEditor(initial: OwnProfile) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const [profile, setProfile] = useState(initial);
  const [busy, setBusy] = useState(false);

  async function save(patch: ProfilePatchInput, quiet = false) {
    setBusy(true);
    const body = await profiles.updateProfile(profile.memberId, patch);
    setBusy(false);
    if ("info" in body) {
      setProfile(body.info);
      if (!quiet) toast(t("saved"), "success");
      if (patch.nickname !== undefined) localStorage.setItem("nickname", body.info.nickname);
      return true;
    }
    toast(errorText(t, body), "error");
    return false;
  }

  return { profile, setProfile, save, busy, setBusy };
}

export type ProfileEditor = ReturnType<typeof useProfileEditor>;
