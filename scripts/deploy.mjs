// npm run deploy [-- --env staging|production] [-- --dry-run]
// Builds for the chosen environment, applies D1 migrations remotely, then deploys the worker.
// --dry-run builds and bundles only (no account needed) and prints the gzip size of the worker.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { migrateAll } from "./d1-migrate.mjs";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const envIndex = args.indexOf("--env");
const target = envIndex >= 0 ? args[envIndex + 1] : "production";
if (!["staging", "production"].includes(target)) throw new Error(`unknown environment ${target}`);

const run = (cmd, cmdArgs, extraEnv = {}) =>
  execFileSync(cmd, cmdArgs, { stdio: "inherit", env: { ...process.env, ...extraEnv } });

// The vite plugin bakes the environment's bindings into build/server/wrangler.json.
run("npx", ["react-router", "build"], { CLOUDFLARE_ENV: target });
if (dryRun) {
  const outdir = path.resolve(".wrangler/dry-run");
  // A fresh folder: files of an earlier build (other hashes) would be counted too.
  rmSync(outdir, { recursive: true, force: true });
  run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir]);
  let raw = 0;
  let gzip = 0;
  for (const file of readdirSync(outdir, { recursive: true })) {
    const full = path.join(outdir, String(file));
    if (statSync(full).isFile() && /\.(js|mjs|wasm)$/.test(full)) {
      raw += statSync(full).size;
      gzip += gzipSync(readFileSync(full)).length;
    }
  }
  console.log(`worker bundle (${target}): ${(raw / 1024).toFixed(0)} KiB, ${(gzip / 1024).toFixed(0)} KiB gzip`);
} else {
  // Every D1 database of the environment: DB and each tenant's own DB_<CODE> (scripts/d1-migrate.mjs).
  migrateAll(["--remote"]);
  run("npx", ["wrangler", "deploy"]);
}
