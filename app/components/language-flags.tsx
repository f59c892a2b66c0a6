import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { isOk } from "../../worker/contract/envelope";
import { LANGUAGES, rememberLanguage, type LanguageCode } from "../i18n/languages";
import { updateProfile } from "../api/profiles-api";
import { readSession } from "../lib/session-keys";

/**
 * §1: switch the page to `code` now and keep the choice (cookie and `language` key, read by the root loader on
 * every load; for a member also the profile's `language`, which the next login on any device brings back).
 * Resolves false only when the member's stored choice could not be saved.
 */
export function useChooseLanguage() {
  const { i18n } = useTranslation();
  const revalidator = useRevalidator();
  return async function choose(code: LanguageCode): Promise<boolean> {
    rememberLanguage(code);
    if (!i18n.hasResourceBundle(code, "common")) {
      const response = await fetch(`/locales/${code}`);
      if (response.ok) {
        const bundles = (await response.json()) as Record<string, Record<string, Record<string, unknown>>>;
        for (const [lang, namespaces] of Object.entries(bundles)) {
          for (const [ns, strings] of Object.entries(namespaces)) i18n.addResourceBundle(lang, ns, strings, true, true);
        }
      }
    }
    await i18n.changeLanguage(code);
    // Page titles and <html lang> come from the root loader: load it again in the new language.
    void revalidator.revalidate();
    const session = readSession();
    if (!session) return true;
    const body = await updateProfile(session.memberId, { language: code });
    return isOk(body);
  };
}

/** §1: languages chosen through flag icons; the choice is stored and beats the browser language. */
export function LanguageFlags() {
  const { i18n, t } = useTranslation();
  const choose = useChooseLanguage();

  return (
    <nav className="language-flags" aria-label={t("language.choose")}>
      {LANGUAGES.map((lang) => (
        <button
          key={lang.code}
          type="button"
          className="flag"
          aria-pressed={i18n.language === lang.code}
          aria-label={lang.label}
          title={lang.label}
          // On the login page a failed save is only logged (§8); Settings shows it.
          onClick={() => void choose(lang.code)}
        >
          <span aria-hidden="true">{lang.flag}</span>
        </button>
      ))}
    </nav>
  );
}
