import { describe, expect, it } from "vitest";
import type { JsxString } from "../support/jsx-strings";
import fixture from "./fixtures/hardcoded-strings.fixture.tsx?jsx-strings";

/**
 * Every string a member can see comes from the locale files. The Vite plugin in
 * tests/support/jsx-strings.ts parses each app/**\/*.tsx with the TypeScript compiler (in Node) and hands
 * over the literal text it found; this test fails on any that holds words and is not translated.
 */
const files = import.meta.glob<JsxString[]>("../../app/**/*.tsx", { query: "?jsx-strings", import: "default", eager: true });

/** Attributes a member sees or hears (tooltips, screen readers, placeholders, image text, map credits). */
const VISIBLE_ATTRIBUTE = /^(aria-label|aria-description|aria-placeholder|aria-roledescription|aria-valuetext|title|placeholder|alt|label|attribution|[a-z]+(Label|Title|Text|Placeholder))$/;

/**
 * Not language, so the same in every locale. Keep this short: each entry needs a reason.
 * - "Velvet": the brand name.
 * - "https://": the URL scheme a website field expects (placeholder), the same in every language.
 */
const ALLOWED_WORDS = ["Velvet", "https://"];

/** Elements whose text is code, not copy. */
const NOT_COPY = new Set(["style", "script"]);

function hasWords(text: string) {
  let rest = text;
  for (const word of ALLOWED_WORDS) rest = rest.replaceAll(word, "");
  return /\p{L}/u.test(rest);
}

function violations(strings: JsxString[]): JsxString[] {
  return strings.filter((s) => {
    if (!hasWords(s.text) || s.inTrans) return false;
    if (s.kind === "text") return !NOT_COPY.has(s.name);
    if (s.kind === "attribute") return VISIBLE_ATTRIBUTE.test(s.name);
    return true; // meta title/content
  });
}

describe("no hard-coded user-visible strings", () => {
  it("the rules catch hard-coded text, attributes and page titles, and pass translated ones", () => {
    expect(violations(fixture).map((s) => s.text)).toEqual([
      "Velvet · Hard-coded page title",
      "Hard-coded title",
      "Hard-coded text",
      "Hard-coded alt",
      "Hard-coded placeholder",
      "Hard-coded label ",
      "Hard-coded child",
    ]);
  });

  it("reads every page and component", () => {
    expect(Object.keys(files).length).toBeGreaterThan(50);
    expect(Object.keys(files)).toContain("../../app/root.tsx");
  });

  it("app/**/*.tsx shows only translated text (move literals into app/i18n/locales/*)", () => {
    const found = Object.entries(files).flatMap(([path, strings]) =>
      violations(strings).map((s) => `${path.replace("../../", "")}:${s.line} ${s.kind === "text" ? `<${s.name || "fragment"}>` : s.name}=${JSON.stringify(s.text)}`),
    );
    expect(found).toEqual([]);
  });
});
