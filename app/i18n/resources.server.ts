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

/** Only the chosen language (plus the fallback) travels to the browser; with `only`, only those namespaces. */
export function resourcesFor(lang: LanguageCode, only?: readonly string[] | null): Record<string, Resources> {
  const pick = (code: string): Resources => {
    const all = byLanguage[code] ?? {};
    return only ? Object.fromEntries(only.filter((ns) => ns in all).map((ns) => [ns, all[ns] as Record<string, unknown>])) : all;
  };
  return lang === FALLBACK_LANGUAGE ? { [lang]: pick(lang) } : { [lang]: pick(lang), [FALLBACK_LANGUAGE]: pick(FALLBACK_LANGUAGE) };
}

export const namespaces = Object.keys(byLanguage[FALLBACK_LANGUAGE] ?? {});
