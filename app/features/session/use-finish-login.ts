import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { SessionInfo } from "../../../worker/contract/session";
import { rememberLanguage, normalizeLanguage } from "../../i18n/languages";
import { saveSession } from "../../lib/session-keys";

/** After login or sign-up: keep the §3 keys, apply the stored language, go home replacing history. */
export function useFinishLogin(projectCode: string) {
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  return (info: SessionInfo) => {
    saveSession(info);
    // Referral sign-up joins the inviter's tenant (§7), which may not be the one in this page's address.
    const home = `/${info.projectCode ? info.projectCode.toLowerCase() : projectCode}/home`;
    const lang = normalizeLanguage(info.language);
    if (lang && lang !== i18n.language) {
      rememberLanguage(lang);
      // A full load brings the member's language bundle with the first render.
      window.location.replace(home);
      return;
    }
    navigate(home, { replace: true });
  };
}
