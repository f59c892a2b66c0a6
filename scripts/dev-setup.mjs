// First `npm run dev` on a fresh clone: secrets, local migrations, demo tenant. Safe to run every time.
import { execFileSync } from "node:child_process";

execFileSync("node", ["scripts/ensure-dev-vars.mjs"], { stdio: "inherit" });
// Every local D1 database (DB and each tenant's own, e.g. DB_TST): scripts/d1-migrate.mjs.
execFileSync("node", ["scripts/d1-migrate.mjs", "--local"], { stdio: ["ignore", "ignore", "inherit"] });
execFileSync("node", ["scripts/seed-local.mjs"], { stdio: "inherit" });
