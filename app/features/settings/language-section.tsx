import { useTranslation } from "react-i18next";
import { useChooseLanguage } from "../../components/language-flags";
import { useToast } from "../../components/toast";
import { LANGUAGES } from "../../i18n/languages";

/** §1 language, for a signed-in member: stored on the profile, so it follows them to every device and page load. */
export function LanguageSection() {
  const { t, i18n } = useTranslation("settings");
  const toast = useToast();
  const choose = useChooseLanguage();
  return (
    <section className="card" aria-labelledby="settings-language">
      <h2 id="settings-language">{t("language.title")}</h2>
      <p className="settings-lead">{t("language.lead")}</p>
      <div className="settings-choices" role="group" aria-labelledby="settings-language">
        {LANGUAGES.map((lang) => (
          <button
            key={lang.code}
            type="button"
            className="settings-choice"
            lang={lang.code}
            aria-pressed={i18n.language === lang.code}
            onClick={() => void choose(lang.code).then((saved) => toast(saved ? t("saved") : t("language.notStored"), saved ? "success" : "error"))}
          >
            <span aria-hidden="true">{lang.flag}</span> {lang.label}
          </button>
        ))}
      </div>
    </section>
  );
}
