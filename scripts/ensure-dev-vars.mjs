// Local secrets live in .dev.vars (git-ignored). Generate one on first run.
import { existsSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

if (!existsSync(".dev.vars")) {
  writeFileSync(".dev.vars", `JWT_SECRET=${randomBytes(32).toString("hex")}\n`);
  console.log("Created .dev.vars with a fresh JWT_SECRET");
}
