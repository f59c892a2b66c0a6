import { describe, expect, it } from "vitest";

// Every visible string exists in en, ja, zh-CN and zh-TW: a key missing from any locale fails.
const files = import.meta.glob<{ default: Record<string, unknown> }>("../../app/i18n/locales/*/*.json", { eager: true });
const LANGUAGES = ["en", "ja", "zh-CN", "zh-TW"];

function keys(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object") return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const byNamespace = new Map<string, Map<string, Record<string, unknown>>>();
for (const [path, module] of Object.entries(files)) {
  const [, lang, ns] = path.match(/locales\/([^/]+)\/([^/]+)\.json$/) ?? [];
  if (!lang || !ns) continue;
  if (!byNamespace.has(ns)) byNamespace.set(ns, new Map());
  byNamespace.get(ns)!.set(lang, module.default);
}

describe("locales", () => {
  it("has only the four supported languages", () => {
    const seen = new Set([...byNamespace.values()].flatMap((m) => [...m.keys()]));
    expect([...seen].sort()).toEqual([...LANGUAGES].sort());
  });

  for (const [ns, langs] of byNamespace) {
    it(`namespace "${ns}" has the same keys in every language, none empty`, () => {
      const reference = keys(langs.get("en") ?? {}).sort();
      expect(reference.length).toBeGreaterThan(0);
      for (const lang of LANGUAGES) {
        const strings = langs.get(lang);
        expect(strings, `${lang}/${ns}.json is missing`).toBeDefined();
        expect(keys(strings).sort(), `${lang}/${ns}.json keys differ from en`).toEqual(reference);
        for (const key of reference) {
          const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], strings);
          expect(typeof value === "string" && value.trim().length > 0, `${lang}/${ns}:${key} is empty`).toBe(true);
        }
      }
    });
  }

  it("has a translation for every error code of the catalogue", async () => {
    const { errors } = await import("../../worker/contract/errors");
    for (const lang of LANGUAGES) {
      const table = byNamespace.get("errors")?.get(lang) ?? {};
      for (const entry of Object.values(errors)) expect(table[entry.code], `${lang} errors:${entry.code}`).toBeTruthy();
    }
  });
});
