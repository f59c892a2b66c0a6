import { describe, expect, it } from "vitest";
import { resolveImport } from "./resolve-import";

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
    // Each path, method and answer type is written once, in its feature's `app/api/<feature>-api.ts` module (README Layout); a page
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

  it("app/ has no import loop between folders or files", () => {
    // app/: lib, components and api/ (the typed endpoint functions) below the features; a control two features show
    // (muted words, requests filters, who sees connections) lives in features/safety, below chat, social and settings.
    const imports = importGraph(appFiles, "app", [".ts", ".tsx"]);
    expect(stronglyConnected(mapEdges(imports, folderOf))).toEqual([]);
    expect(stronglyConnected(mapEdges(imports, (file) => file))).toEqual([]);
  });

  it("worker/ has no import loop between folders or files", () => {
    const imports = importGraph(workerFiles, "worker");
    const fileLoops = stronglyConnected(mapEdges(imports, (file) => file));
    const folderLoops = stronglyConnected(mapEdges(imports, folderOf));
    expect(Object.keys(workerFiles).length).toBeGreaterThan(150);
    expect(folderLoops).toEqual([]);
    expect(fileLoops).toEqual([]);
  });

  it("only worker/db/ prepares D1 statements, besides the listed exceptions", () => {
    // README Decisions "One way to reach D1": services use `getDb(env)` (builders, `sql` through db.get/all/run) and
    // the worker/db/ batch helpers, so every statement runs in the request's session with its guard. Counted per file
    // (comments left out); the list must match exactly, so it only shrinks and a new call anywhere fails here.
    const found: Record<string, number> = {};
    for (const [file, source] of Object.entries(workerFiles)) {
      const name = file.replace(/^(\.\.\/)+/, "");
      if (name.startsWith("worker/db/")) continue;
      const code = source
        .split("\n")
        .filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line))
        .map((line) => line.replace(/\/\/.*$/, ""))
        .join("\n");
      const calls = code.match(/\.prepare\s*\(/g)?.length ?? 0;
      if (calls) found[name] = calls;
    }
    expect(Object.keys(workerFiles).length).toBeGreaterThan(150);
    expect(found).toEqual(Object.fromEntries(Object.entries(PREPARE_ALLOWED).map(([file, { calls }]) => [file, calls])));
  });

  it("app/api and app/lib name every answer shape from worker/contract, never inline", () => {
    // README Decisions "Raw SQL batches by name; answer shapes once": the server declares the contract type it sends, so
    // an inline `api<{ … }>` (or `api<X & { … }>`, any of api, backgroundApi, callApi…) is a second copy that can drift.
    const clients = Object.entries(appFiles).filter(([file]) => /\/app\/(api|lib)\//.test(file));
    const inline = clients.flatMap(([file, source]) =>
      [...source.matchAll(/api\s*<([^()]*?)>\s*\(/gi)]
        .filter((match) => match[1]!.includes("{"))
        .map((match) => `${file.replace(/^(\.\.\/)+/, "")}:${source.slice(0, match.index).split("\n").length} api<${match[1]}>`),
    );
    expect(clients.length).toBeGreaterThan(20);
    expect(inline).toEqual([]);
  });
});

/** The `.prepare(` calls outside worker/db/ that stay, each with why (README Decisions "One way to reach D1"). */
const PREPARE_ALLOWED: Record<string, { calls: number; why: string }> = {
  "worker/features/privacy/privacy.service.ts": {
    calls: 2,
    why: "export and erasure SQL made from table metadata (every schema table naming the member): no builder or sql template exists for it",
  },
  "worker/features/session/session-guard.ts": {
    calls: 1,
    why: "the session guard's check is prepared on the request's own D1 session so the routed binding can put it first in the request's batches (db/d1-session.ts): D1 plumbing, not a service read",
  },
};

/**
 * Folder loops: a folder is each `worker/features/<x>`, or `worker/<x>` (rooms, http, db, lib, contract). A piece two
 * folders share moves down to a folder both may import (features/members, features/images, lib, contract), never
 * copied (README Layout: the folders' order).
 */
const workerFiles = import.meta.glob<string>(["../../worker/**/*.ts", "!../../worker/**/*.d.ts"], { query: "?raw", import: "default", eager: true });

function folderOf(file: string): string {
  const parts = file.split("/");
  return parts[0] === "features" ? parts.slice(0, 2).join("/") : parts.length > 1 ? parts[0]! : "(root)";
}

/** File → files it imports (paths relative to `root`), from `import`/`export … from "…"` statements. */
function importGraph(files: Record<string, string>, root: string, extensions: readonly string[] = [".ts"]): Map<string, Set<string>> {
  const byPath = new Map(Object.entries(files).map(([file, source]) => [file.replace(new RegExp(`^(\\.\\./)+${root}/`), ""), source]));
  const known = new Set(byPath.keys());
  const graph = new Map<string, Set<string>>();
  for (const [file, source] of byPath) {
    const targets = new Set<string>();
    for (const match of source.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?"([^"]+)"/g)) {
      const target = resolveImport(file, match[1]!, known, extensions);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The graph between `key`s of files (themselves, or their folders). */
function mapEdges(graph: Map<string, Set<string>>, key: (file: string) => string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (key(from) === key(to)) continue;
      if (!out.has(key(from))) out.set(key(from), new Set());
      out.get(key(from))!.add(key(to));
    }
  }
  return out;
}

/** Tarjan's strongly connected components of more than one node: each one is a loop. */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

