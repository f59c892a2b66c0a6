// Local secrets live in .dev.vars (git-ignored). Generate them on first run; add any that a newer checkout needs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

// JWT_SECRET signs tickets and tokens; SEAL_SECRET seals keyed albums' scramble seeds (kept apart so rotating
// one never touches the other).
const SECRETS = ["JWT_SECRET", "SEAL_SECRET"];

const current = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
const missing = SECRETS.filter((name) => !new RegExp(`^${name}=\\S`, "m").test(current));
if (missing.length) {
  const lines = missing.map((name) => `${name}=${randomBytes(32).toString("hex")}`).join("\n");
  writeFileSync(".dev.vars", `${current}${current && !current.endsWith("\n") ? "\n" : ""}${lines}\n`);
  console.log(`${current ? "Added to" : "Created"} .dev.vars: a fresh ${missing.join(" and ")}`);
}
