// Applies D1 migrations to EVERY D1 binding of the config wrangler will use (README Decisions "A tenant per
// database": the shared DB and each tenant's own DB_<CODE>), not only DB.
//   node scripts/d1-migrate.mjs --local [--persist-to <dir>]   (dev setup, npm run db:migrate:local, e2e)
//   node scripts/d1-migrate.mjs --remote                       (npm run deploy, after the build for its environment)
// Extra arguments are passed to `wrangler d1 migrations apply`.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { d1Bindings } from "./d1-bindings.mjs";

export function migrateAll(args, { quiet = false } = {}) {
  const bindings = d1Bindings();
  for (const binding of bindings) {
    execFileSync("npx", ["wrangler", "d1", "migrations", "apply", binding, ...args], { stdio: quiet ? "pipe" : ["ignore", "inherit", "inherit"] });
  }
  return bindings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (!args.includes("--local") && !args.includes("--remote")) throw new Error("say --local or --remote");
  const done = migrateAll(args);
  console.log(`migrated D1 bindings: ${done.join(", ")}`);
}
