// Local secrets live in .dev.vars (git-ignored). Generate them on first run, and add any a newer version needs:
// the worker refuses every request without them (worker/http/config-guard.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const SECRETS = ["JWT_SECRET", "SEAL_SECRET"];
const current = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
const present = (name) => new RegExp(`^\\s*${name}\\s*=\\s*\\S{32,}`, "m").test(current);
const missing = SECRETS.filter((name) => !present(name));
if (missing.length) {
  // A secret that is there but too short is replaced, not repeated.
  const kept = current
    .split("\n")
    .filter((line) => !missing.some((name) => new RegExp(`^\\s*${name}\\s*=`).test(line)))
    .join("\n")
    .replace(/\n*$/, "");
  const added = missing.map((name) => `${name}=${randomBytes(32).toString("hex")}`).join("\n");
  writeFileSync(".dev.vars", `${kept ? `${kept}\n` : ""}${added}\n`);
  console.log(`${current ? "Added to" : "Created"} .dev.vars: a fresh ${missing.join(" and ")}`);
}
