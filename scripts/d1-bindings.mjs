// The D1 bindings of the config wrangler reads here: after a build, the built worker's wrangler.json (the vite
// plugin leaves `.wrangler/deploy/config.json` pointing at it, with the chosen environment's bindings); else
// wrangler.toml's top level (local dev and tests).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export function d1Bindings() {
  const redirect = path.join(root, ".wrangler/deploy/config.json");
  if (existsSync(redirect)) {
    const { configPath } = JSON.parse(readFileSync(redirect, "utf8"));
    const built = path.resolve(path.dirname(redirect), configPath);
    if (existsSync(built)) {
      const config = JSON.parse(readFileSync(built, "utf8"));
      return (config.d1_databases ?? []).map((d) => d.binding);
    }
  }
  // Top-level `[[d1_databases]]` blocks only: environments ([env.*]) declare their own.
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8").split(/^\[env\./m)[0];
  return [...toml.matchAll(/^\[\[d1_databases\]\]\s*\nbinding\s*=\s*"([A-Za-z0-9_]+)"/gm)].map((m) => m[1]);
}
