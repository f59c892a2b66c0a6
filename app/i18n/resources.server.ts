import { FALLBACK_LANGUAGE, type LanguageCode } from "./languages";

export type Resources = Record<string, Record<string, unknown>>;

// Every namespace of every language: app/i18n/locales/<lang>/<namespace>.json.
const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json", { eager: true });

const byLanguage: Record<string, Resources> = {};
for (const [path, module] of Object.entries(files)) {
  const [, lang, file] = path.match(/\.\/locales\/([^/]+)\/([^/]+)\.json$/) ?? [];
  if (!lang || !file) continue;
  byLanguage[lang] ??= {};
  byLanguage[lang][file] = module.default;
}

/** Only the chosen language (plus the fallback) travels to the browser. */
export function resourcesFor(lang: LanguageCode): Record<string, Resources> {
  return lang === FALLBACK_LANGUAGE
    ? { [lang]: byLanguage[lang] ?? {} }
    : { [lang]: byLanguage[lang] ?? {}, [FALLBACK_LANGUAGE]: byLanguage[FALLBACK_LANGUAGE] ?? {} };
}

export const namespaces = Object.keys(byLanguage[FALLBACK_LANGUAGE] ?? {});
