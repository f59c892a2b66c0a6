import { describe, expect, it } from "vitest";
import { createI18n, type LocaleBundle } from "../../app/i18n/i18n";
import { errorText } from "../../app/lib/error-text";
import { errors } from "../../worker/contract/errors";

// Envelope errors are shown in the member's language, by returnCode (worker/contract/errors.ts).
const files = import.meta.glob<{ default: Record<string, string> }>("../../app/i18n/locales/*/errors.json", { eager: true });
const bundle: LocaleBundle = {};
for (const [path, module] of Object.entries(files)) {
  const lang = path.match(/locales\/([^/]+)\//)?.[1];
  if (lang) bundle[lang] = { errors: module.default };
}
const failure = (returnCode: string, returnMessage = "English from the server") => ({ returnCode, returnMessage });

describe("errorText", () => {
  for (const lang of ["ja", "zh-CN", "zh-TW"] as const) {
    it(`${lang}: every catalogue entry is shown translated, never in the server's English`, () => {
      const t = createI18n(lang, bundle).t;
      for (const entry of Object.values(errors)) {
        const text = errorText(t, failure(entry.code, entry.message));
        expect(text, entry.code).toBe(bundle[lang]!.errors![entry.code]);
        expect(text, entry.code).not.toBe(entry.message);
      }
    });
  }

  it("client-side codes and bare HTTP statuses get a translated text too", () => {
    const t = createI18n("ja", bundle).t;
    const ja = bundle.ja!.errors!;
    expect(errorText(t, failure("000001", "Network error"))).toBe(ja["000001"]);
    expect(errorText(t, failure("413", "Payload Too Large"))).toBe(ja["413000"]);
    expect(errorText(t, failure("429", "Too Many Requests"))).toBe(ja["429000"]);
    expect(errorText(t, failure("502", "Bad Gateway"))).toBe(ja["500000"]);
    expect(errorText(t, failure("409999"))).toBe(ja["409000"]);
  });

  it("English members read the catalogue's own text", () => {
    const t = createI18n("en", bundle).t;
    expect(errorText(t, failure(errors.insufficientCoins.code))).toBe(errors.insufficientCoins.message);
  });
});
