import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { formatNumber } from "./format";
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
  // `{{count, number}}` in a translation formats through the shared helper (grouping per language).
  instance.services.formatter?.add("number", (value, lng, options) => formatNumber(lng ?? lang, Number(value), numberOptions(options)));
  return instance;
}

const NUMBER_OPTIONS = ["style", "unit", "unitDisplay", "notation", "signDisplay", "useGrouping", "minimumFractionDigits", "maximumFractionDigits"] as const;

/** Only Intl.NumberFormat's own options from `{{value, number(maximumFractionDigits: 1)}}`, not the t() values. */
function numberOptions(options: Record<string, unknown> | undefined): Intl.NumberFormatOptions {
  const picked: Record<string, unknown> = {};
  for (const key of NUMBER_OPTIONS) if (options?.[key] !== undefined) picked[key] = options[key];
  return picked as Intl.NumberFormatOptions;
}
