import { LANGUAGE_COOKIE } from "../../worker/contract/session.constants";

/** §1: en, ja, zh-CN, zh-TW chosen through flag icons; fallback en. */
export const LANGUAGES = [
  { code: "en", flag: "🇺🇸", label: "English" },
  { code: "ja", flag: "🇯🇵", label: "日本語" },
  { code: "zh-CN", flag: "🇨🇳", label: "简体中文" },
  { code: "zh-TW", flag: "🇹🇼", label: "繁體中文" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const FALLBACK_LANGUAGE: LanguageCode = "en";
export { LANGUAGE_COOKIE };

/** Long forms (en-US, ja-JP, zh-Hans…) to the four short codes. */
export function normalizeLanguage(raw: string | null | undefined): LanguageCode | null {
  if (!raw) return null;
  const tag = raw.trim().toLowerCase();
  if (tag.startsWith("zh")) return /tw|hk|mo|hant/.test(tag) ? "zh-TW" : "zh-CN";
  if (tag.startsWith("ja")) return "ja";
  if (tag.startsWith("en")) return "en";
  return null;
}

/** The stored choice (cookie mirrors the `language` local-storage key) beats the browser's. */
export function pickLanguage(stored: string | null, acceptLanguage: string | null): LanguageCode {
  const chosen = normalizeLanguage(stored);
  if (chosen) return chosen;
  for (const part of (acceptLanguage ?? "").split(",")) {
    const match = normalizeLanguage(part.split(";")[0]);
    if (match) return match;
  }
  return FALLBACK_LANGUAGE;
}

export function rememberLanguage(code: LanguageCode) {
  localStorage.setItem("language", code);
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari and Firefox; this cookie only carries the language
  document.cookie = `${LANGUAGE_COOKIE}=${code}; Path=/; Max-Age=31536000; SameSite=Lax`;
  document.documentElement.lang = code;
}

/**
 * True when the language cookie names another language than the root loader's data was made for (the page
 * marks that one on `<html data-loaded-lang>`): right after a switch, so page titles and `<html lang>` follow.
 */
export function languageDataStale(): boolean {
  if (typeof document === "undefined") return false;
  const chosen = normalizeLanguage(document.cookie.match(new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`))?.[1]);
  return Boolean(chosen) && chosen !== document.documentElement.dataset.loadedLang;
}
