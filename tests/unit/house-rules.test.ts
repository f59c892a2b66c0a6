import { describe, expect, it } from "vitest";

/**
 * Rules of the house that a reviewer should not have to remember (README Layout):
 * - the browser reaches worker code only through `worker/contract/` (what both sides agree on), so a page never
 *   bundles a service, a query or a secret's reader by accident;
 * - comments cite the spec (§N), SECURITY.md or a README Decision, never a tracker's issue number, which a reader
 *   of the repository cannot open.
 */
const appFiles = import.meta.glob<string>("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
const sourceFiles = import.meta.glob<string>(["../../{app,worker,tests,scripts}/**/*.{ts,tsx,mjs,css}", "../../migrations/*.sql", "!**/node_modules/**"], {
  query: "?raw",
  import: "default",
  eager: true,
});

describe("house rules", () => {
  it("app/ imports worker code only from worker/contract", () => {
    const crossings = Object.entries(appFiles).flatMap(([file, source]) =>
      [...source.matchAll(/from\s+"((?:\.\.\/)+worker\/[^"]+)"/g)]
        .map((match) => match[1]!)
        .filter((from) => !/\/worker\/contract\//.test(from))
        .map((from) => `${file.replace(/^(\.\.\/)+/, "")} imports ${from}`),
    );
    expect(Object.keys(appFiles).length).toBeGreaterThan(50);
    expect(crossings).toEqual([]);
  });

  it("no comment cites an issue number", () => {
    const citing = Object.entries(sourceFiles).flatMap(([file, source]) =>
      source
        .split("\n")
        .map((line, i) => ({ line, at: i + 1 }))
        .filter(({ line }) => /\bissues? #?\d+/i.test(line))
        .map(({ at }) => `${file.replace(/^(\.\.\/)+/, "")}:${at}`),
    );
    expect(Object.keys(sourceFiles).length).toBeGreaterThan(300);
    expect(citing).toEqual([]);
  });

  it("components call the typed endpoint functions, never the raw api() client", () => {
    // Each path, method and answer type is written once, in its feature's `*-api.ts` module (README Layout); a page
    // that calls `api(` itself writes a second copy that can drift from the contract.
    const components = Object.entries(appFiles).filter(([file]) => file.endsWith(".tsx"));
    const raw = components.flatMap(([file, source]) => {
      const name = file.replace(/^(\.\.\/)+/, "");
      const found: string[] = [];
      if (/import\s*\{[^}]*\bapi\b[^}]*\}\s*from\s*"[^"]*\/lib\/api"/.test(source)) found.push(`${name} imports the raw api client`);
      source.split("\n").forEach((line, i) => {
        if (/(^|[^\w.$])api\s*(<[^()]*>)?\s*\(/.test(line.replace(/\/\/.*$/, ""))) found.push(`${name}:${i + 1} calls api(`);
      });
      return found;
    });
    expect(components.length).toBeGreaterThan(50);
    expect(raw).toEqual([]);
  });
});
