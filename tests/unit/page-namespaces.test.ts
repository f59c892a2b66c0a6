import { describe, expect, it } from "vitest";
import { PAGE_NAMESPACES, pageNamespaces } from "../../app/i18n/page-namespaces";
import { resolveImport } from "./resolve-import";

/**
 * A main page's HTML carries only the namespaces listed for it (app/i18n/page-namespaces.ts): each list must hold
 * every namespace the page's modules can use — the route module and what it imports, the root and the member
 * shell — or the page would render a key until the rest of the language arrives.
 */
const appFiles = import.meta.glob<string>("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
const source = new Map(Object.entries(appFiles).map(([file, text]) => [file.replace(/^(\.\.\/)+/, ""), text]));
const known = Object.keys(import.meta.glob("../../app/i18n/locales/en/*.json")).map((f) => f.replace(/^.*\//, "").replace(/\.json$/, ""));

const resolve = (from: string, spec: string) => resolveImport(from, spec, source, [".tsx", ".ts"]);

/** Namespaces reachable from `entry` through static and dynamic imports inside app/. */
function namespacesOf(entry: string): Set<string> {
  const seen = new Set<string>();
  const found = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = source.get(file);
    if (text === undefined) throw new Error(`no such app module ${file}`);
    for (const m of text.matchAll(/(?:import|export)\s+(?!type\s)(?:[^;"']*?from\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const next = resolve(file, m[1] ?? m[2] ?? "");
      if (next) stack.push(next);
    }
    for (const m of text.matchAll(/useTranslation\(\s*(\[[^\]]*\]|"[^"]*")/g)) for (const n of (m[1] ?? "").matchAll(/"([^"]+)"/g)) found.add(n[1] ?? "");
    for (const m of text.matchAll(/getFixedT\([^,]*,\s*"([^"]+)"/g)) found.add(m[1] ?? "");
    for (const m of text.matchAll(/\bns[:=]\s*\{?\s*"([^"]+)"/g)) found.add(m[1] ?? "");
    // `t("ns:key")`, `pageTitle(matches, "ns:key")`, `i18nKey="ns:key"`: any literal that names a namespace.
    for (const ns of known) if (new RegExp(`["'\`]${ns}:[A-Za-z]`).test(text)) found.add(ns);
  }
  return found;
}

const shell = new Set([...namespacesOf("app/root.tsx"), ...namespacesOf("app/routes/member-shell.tsx")]);
const pages: Record<string, string> = {
  login: "app/routes/login.tsx",
  home: "app/routes/home.tsx",
  profiles: "app/routes/profiles.tsx",
  share: "app/routes/share.tsx",
  s: "app/routes/share.tsx",
  "public-chat": "app/routes/chat-public.tsx",
};

describe("namespaces in a main page's HTML", () => {
  it("finds the app's modules and namespaces", () => {
    expect(source.size).toBeGreaterThan(100);
    expect(known).toContain("common");
    expect(namespacesOf("app/routes/home.tsx")).toContain("home");
  });

  for (const [page, file] of Object.entries(pages)) {
    it(`${page}: lists every namespace its modules can use`, () => {
      const needed = [...new Set([...shell, ...namespacesOf(file)])].sort();
      expect(needed.filter((ns) => !PAGE_NAMESPACES[page]?.includes(ns))).toEqual([]);
      for (const ns of PAGE_NAMESPACES[page] ?? []) expect(known).toContain(ns);
    });
  }

  it("maps paths to pages; other pages get every namespace", () => {
    expect(pageNamespaces("/big/home")).toBe(PAGE_NAMESPACES.home);
    expect(pageNamespaces("/big/share/30000002")).toBe(PAGE_NAMESPACES.share);
    expect(pageNamespaces("/big/settings")).toBeNull();
    expect(pageNamespaces("/locales/en")).toBeNull();
    expect(pageNamespaces("/")).toBeNull();
  });
});
