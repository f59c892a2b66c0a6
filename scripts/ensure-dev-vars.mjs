// Local secrets live in .dev.vars (git-ignored). Generate them on first run, and add any a newer version needs:
// the worker refuses every request without them (worker/http/config-guard.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { generateKeyPairSync, randomBytes } from "node:crypto";

const current = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
const value = (name) => current.match(new RegExp(`^\\s*${name}\\s*=\\s*(\\S*)`, "m"))?.[1] ?? "";

const SECRETS = ["JWT_SECRET", "SEAL_SECRET", "SIGNAL_SECRET"];
const fresh = {};
for (const name of SECRETS) if (value(name).length < 32) fresh[name] = randomBytes(32).toString("hex");

// Web push: a VAPID key pair (RFC 8292) as base64url, public = uncompressed P-256 point, private = its scalar.
// A half-present pair is replaced whole: a public key that does not match the private one signs nothing valid.
if (value("VAPID_PUBLIC_KEY").length < 80 || value("VAPID_PRIVATE_KEY").length < 40) {
  const jwk = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ format: "jwk" });
  fresh.VAPID_PUBLIC_KEY = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]).toString("base64url");
  fresh.VAPID_PRIVATE_KEY = jwk.d;
}
if (!/^(mailto:|https:\/\/)/.test(value("VAPID_SUBJECT"))) fresh.VAPID_SUBJECT = "mailto:push@velvet.localhost";

const missing = Object.keys(fresh);
if (missing.length) {
  // A secret that is there but too short is replaced, not repeated.
  const kept = current
    .split("\n")
    .filter((line) => !missing.some((name) => new RegExp(`^\\s*${name}\\s*=`).test(line)))
    .join("\n")
    .replace(/\n*$/, "");
  const added = missing.map((name) => `${name}=${fresh[name]}`).join("\n");
  writeFileSync(".dev.vars", `${kept ? `${kept}\n` : ""}${added}\n`);
  console.log(`${current ? "Added to" : "Created"} .dev.vars: a fresh ${missing.join(", ")}`);
}
