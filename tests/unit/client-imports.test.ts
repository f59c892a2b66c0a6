import { describe, expect, it } from "vitest";

/**
 * First-load JS: zod is ~25 KB of gzip that no page needs to render. Pages may import from
 * worker/contract only modules that do not reach zod (`<feature>.constants.ts`, envelope, types); the socket
 * event union is loaded lazily by app/lib/realtime.ts with `import()`, which this check does not count (and
 * which sets zod's `jitless` first: the page CSP has no 'unsafe-eval').
 */
const appFiles = import.meta.glob<string>("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
const contractFiles = import.meta.glob<string>("../../worker/contract/*.ts", { query: "?raw", import: "default", eager: true });

const contractSource = new Map(Object.entries(contractFiles).map(([path, text]) => [path.replace(/^.*\/contract\//, "").replace(/\.ts$/, ""), text]));

/** Static imports and re-exports that bring values (not `import type`, not only `type` specifiers). */
function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const [, , typeOnly, clause = "", from = ""] of source.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s*"([^"]+)";?$/gm)) {
    if (typeOnly) continue;
    const named = clause.trim().match(/^\{([^}]*)\}$/); // only `{ ... }`: a default or namespace import is a value
    const names = named?.[1]?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
    if (named && names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    found.push(from);
  }
  for (const [, from = ""] of source.matchAll(/^import\s+"([^"]+)";?$/gm)) found.push(from);
  return found;
}

function reachesZod(name: string, seen = new Set<string>()): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  const source = contractSource.get(name);
  if (source === undefined) throw new Error(`unknown contract module ${name}`);
  return valueImports(source).some((from) => from === "zod" || from.startsWith("zod/") || (from.startsWith("./") && reachesZod(from.slice(2).replace(/\.ts$/, ""), seen)));
}

describe("browser code and zod", () => {
  it("finds the contract modules and knows which reach zod", () => {
    expect(reachesZod("chat")).toBe(true);
    expect(reachesZod("chat.constants")).toBe(false);
    expect(reachesZod("envelope")).toBe(false);
  });

  it("no page imports zod, or a contract module that reaches it", () => {
    const offenders: string[] = [];
    for (const [path, source] of Object.entries(appFiles)) {
      if (/\.server\.tsx?$/.test(path)) continue; // server-only modules never reach the browser
      for (const from of valueImports(source)) {
        if (from === "zod" || from.startsWith("zod/")) offenders.push(`${path.replace(/^(\.\.\/)+/, "")} imports ${from}`);
        const name = from.match(/worker\/contract\/([\w.-]+?)(?:\.ts)?$/)?.[1];
        if (name && reachesZod(name)) offenders.push(`${path.replace(/^(\.\.\/)+/, "")} imports ${from}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * Radix's dialog and toast code (focus trap, scroll lock, portals: ~50 KB of script) comes after the first paint:
 * only app/components/dialog-panel.tsx and toast-list.tsx import those parts, and nothing imports either module
 * statically (dialog.tsx and toast.tsx load them with `import()`).
 */
describe("browser code and the dialog stack", () => {
  const LATE = { "dialog-panel": "app/components/dialog-panel.tsx", "toast-list": "app/components/toast-list.tsx" };
  const lateParts = /\b(Dialog|AlertDialog|Toast)\b/;

  it("imports Radix's Dialog, AlertDialog and Toast only in the modules loaded later", () => {
    const offenders: string[] = [];
    for (const [path, source] of Object.entries(appFiles)) {
      const file = path.replace(/^(\.\.\/)+/, "");
      if (Object.values(LATE).includes(file)) continue;
      for (const [, clause = ""] of source.matchAll(/^import\s+(?!type\s)([^;]*?)\s*from\s*"(?:radix-ui|@radix-ui\/[^"]+)";?$/gm)) {
        if (lateParts.test(clause)) offenders.push(`${file}: ${clause}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("loads dialog-panel and toast-list only with import()", () => {
    const offenders: string[] = [];
    for (const [path, source] of Object.entries(appFiles)) {
      for (const from of valueImports(source)) {
        for (const name of Object.keys(LATE)) if (from.endsWith(`/${name}`) || from.endsWith(`/${name}.tsx`)) offenders.push(`${path.replace(/^(\.\.\/)+/, "")} imports ${from}`);
      }
    }
    expect(offenders).toEqual([]);
    expect(appFiles["../../app/components/dialog.tsx"]).toContain('import("./dialog-panel")');
    expect(appFiles["../../app/components/toast.tsx"]).toContain('import("./toast-list")');
  });
});

/**
 * js-md5 (personal chatroom names, README Decisions "Small stylesheets ride with the app's; js-md5 and partysocket come
 * after hydration") and partysocket (sockets open after hydration): no first load fetches them.
 */
describe("browser code, js-md5 and partysocket", () => {
  it("imports them only with import(), in features/shell/personal-room.ts and lib/realtime.ts", () => {
    const statics = Object.entries(appFiles).flatMap(([path, source]) =>
      valueImports(source)
        .filter((from) => from === "js-md5" || from === "partysocket" || from.startsWith("partysocket/"))
        .map((from) => `${path.replace(/^(\.\.\/)+/, "")} imports ${from}`),
    );
    expect(statics).toEqual([]);
    expect(appFiles["../../app/features/shell/personal-room.ts"]).toContain('import("js-md5")');
    expect(appFiles["../../app/lib/realtime.ts"]).toContain('import("partysocket")');
  });
});

/**
 * The end-to-end crypto (keys, encryption, decryption, encrypted images) comes after the first paint: the public chat
 * and other pages with messages render them before any is decrypted (README Decisions "End-to-end code comes after
 * the first paint"). Outside the crypto modules themselves and Settings (where devices are managed), code reaches it
 * only through `e2eCode` (app/features/e2e/late-e2e.ts), which loads e2e-code.ts with import(), and the shell registers
 * this browser's device through `e2eDevice` (late-device.ts).
 */
describe("browser code and the end-to-end crypto", () => {
  const CRYPTO = ["chat-crypto", "device-keys", "device-link", "device-link-panel", "e2e-code", "encrypted-media", "key-watch", "linked-keys", "own-device-notice", "own-devices", "read-keys", "replay-guard", "safety-number"];
  const cryptoFile = (file: string) => CRYPTO.some((name) => file === `app/features/e2e/${name}.ts` || file === `app/features/e2e/${name}.tsx`);
  /** Whether `from`, imported by `file`, names a crypto module (`./x` counts only inside app/features/e2e). */
  const namesCrypto = (file: string, from: string) => {
    const name = from.match(/(?:^\.\/|\/e2e\/)([\w-]+?)(?:\.tsx?)?$/)?.[1];
    return Boolean(name && CRYPTO.includes(name) && (!from.startsWith("./") || file.startsWith("app/features/e2e/")));
  };

  it("imports the crypto modules statically only from each other and from Settings", () => {
    const offenders: string[] = [];
    for (const [path, source] of Object.entries(appFiles)) {
      const file = path.replace(/^(\.\.\/)+/, "");
      if (cryptoFile(file) || file.startsWith("app/features/settings/")) continue;
      for (const from of valueImports(source)) if (namesCrypto(file, from)) offenders.push(`${file} imports ${from}`);
    }
    expect(offenders).toEqual([]);
    expect(appFiles["../../app/features/e2e/late-e2e.ts"]).toContain('import("./e2e-code")');
  });

  it("loads them with import() only in late-e2e.ts and late-device.ts", () => {
    const offenders: string[] = [];
    for (const [path, source] of Object.entries(appFiles)) {
      const file = path.replace(/^(\.\.\/)+/, "");
      if (file === "app/features/e2e/late-e2e.ts" || file === "app/features/e2e/late-device.ts") continue;
      for (const [, from = ""] of source.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) if (namesCrypto(file, from)) offenders.push(`${file} imports ${from}`);
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * The stylesheets `app/styles/shared-features.css` gathers ride in the root stylesheet every page loads (README
 * Decisions "One stylesheet before the first paint"). A component importing one again would give it a second home,
 * and could put a second render-blocking stylesheet before some page's first paint.
 */
describe("browser code and the shared stylesheets", () => {
  const sharedFeatures = import.meta.glob<string>("../../app/styles/shared-features.css", { query: "?raw", import: "default", eager: true });
  const gathered = [...Object.values(sharedFeatures)[0]!.matchAll(/^@import "\.\.\/([\w/-]+\.css)";$/gm)].map(([, file]) => `app/${file}`);
  /** `from` as imported by `file`, as a path from the repository's root. */
  const resolve = (file: string, from: string) => new URL(from, `file:///${file}`).pathname.slice(1);

  it("imports each of them only from shared-features.css, which root.tsx imports", () => {
    expect(appFiles["../../app/root.tsx"]).toContain('import "./styles/shared-features.css";');
    expect(gathered).toEqual(expect.arrayContaining(["app/features/social/social.css", "app/features/chat/chat.css", "app/features/market/market.css", "app/features/profiles/profiles.css", "app/features/shell/shell.css"]));
    const offenders = Object.entries(appFiles).flatMap(([path, source]) => {
      const file = path.replace(/^(\.\.\/)+/, "");
      return [...source.matchAll(/^import "([^"]+\.css)";$/gm)].filter(([, from]) => gathered.includes(resolve(file, from!))).map(([, from]) => `${file} imports ${from}`);
    });
    expect(offenders).toEqual([]);
  });
});
