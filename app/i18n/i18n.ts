import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, type LanguageCode } from "./languages";

export type LocaleBundle = Record<string, Record<string, Record<string, unknown>>>;

/** One instance per server render; one for the browser, created from the same loader data (no flash). */
export function createI18n(lang: LanguageCode, resources: LocaleBundle): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    resources,
    ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? resources[lang] ?? {}),
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
