import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { formatNumber } from "./format";
import { FALLBACK_LANGUAGE, type LanguageCode } from "./languages";

export type LocaleBundle = Record<string, Record<string, Record<string, unknown>>>;

/**
 * The root loader sends the page's strings as one JSON text (README Decisions "Lighter main pages"): as loader data
 * they were a thousand values React Router's stream decoder rebuilt one by one while the page hydrated; one
 * `JSON.parse` reads them natively. The last text read is kept, so the page title and the app share one parse.
 */
let unpacked: { text: string; bundle: LocaleBundle } | undefined;
export function unpackBundle(text: string): LocaleBundle {
  if (unpacked?.text !== text) unpacked = { text, bundle: JSON.parse(text) as LocaleBundle };
  return unpacked.bundle;
}

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

/** Adds every namespace of `lang` (and the fallback) the page did not bring (`/locales/:lang`, cached 5 minutes). */
export async function completeLanguage(instance: i18n, lang: string): Promise<void> {
  const startPath = window.location.pathname;
  try {
    const response = await fetch(`/locales/${lang}`);
    if (!response.ok) return;
    const bundles = (await response.json()) as LocaleBundle;
    // One namespace per task: the whole language in one go (a copy and a deep merge of every string) was a task of
    // ~0.2 s on a throttled phone right after hydration, on every main page. The bundle is fresh from the response and
    // the namespace absent, so neither a copy nor a merge is needed.
    for (const [code, namespaces] of Object.entries(bundles)) {
      for (const [ns, strings] of Object.entries(namespaces)) {
        if (instance.hasResourceBundle(code, ns)) continue;
        instance.addResourceBundle(code, ns, strings, false, false, { silent: true, skipCopy: true });
        await nextTask();
      }
    }
    // The member opened another page before the strings arrived: it re-renders with them.
    if (window.location.pathname !== startPath) await instance.changeLanguage(instance.language);
  } catch {
    // Offline: the page keeps the namespaces it came with; the next full load brings the rest.
  }
}

/** Yields to the browser (input, rendering) before the next piece of work. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const NUMBER_OPTIONS = ["style", "unit", "unitDisplay", "notation", "signDisplay", "useGrouping", "minimumFractionDigits", "maximumFractionDigits"] as const;

/** Only Intl.NumberFormat's own options from `{{value, number(maximumFractionDigits: 1)}}`, not the t() values. */
function numberOptions(options: Record<string, unknown> | undefined): Intl.NumberFormatOptions {
  const picked: Record<string, unknown> = {};
  for (const key of NUMBER_OPTIONS) if (options?.[key] !== undefined) picked[key] = options[key];
  return picked as Intl.NumberFormatOptions;
}
