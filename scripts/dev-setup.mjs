// First `npm run dev` on a fresh clone: secrets, local migrations, demo tenant. Safe to run every time.
import { execFileSync } from "node:child_process";

execFileSync("node", ["scripts/ensure-dev-vars.mjs"], { stdio: "inherit" });
execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"], { stdio: ["ignore", "ignore", "inherit"] });
execFileSync("node", ["scripts/seed-local.mjs"], { stdio: "inherit" });
