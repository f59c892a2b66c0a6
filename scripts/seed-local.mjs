// Seeds the demo tenant into local D1/R2 (.wrangler/state) through wrangler's platform proxy.
// Idempotent: does nothing when the demo member exists. Feature seeds live in scripts/seed/*.mjs,
// run in file-name order, each `export async function seed(ctx)`.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getPlatformProxy } from "wrangler";

const persistTo = process.env.VELVET_STATE_DIR;
const { env, dispose } = await getPlatformProxy({ configPath: "wrangler.toml", ...(persistTo ? { persist: { path: persistTo } } : {}) });
try {
  const existing = await env.DB.prepare("select id from members where email = ?").bind("demo@velvet.example").first();
  if (existing) {
    console.log("Demo tenant SMP already seeded (log in as demo@velvet.example / velvet-demo).");
  } else {
    const ctx = { env, project: "SMP", members: [] };
    const dir = path.resolve("scripts/seed");
    for (const file of readdirSync(dir).filter((f) => /^\d\d-.*\.mjs$/.test(f)).sort()) {
      const module = await import(pathToFileURL(path.join(dir, file)).href);
      const started = Date.now();
      await module.seed(ctx);
      console.log(`seeded ${file} in ${Date.now() - started} ms`);
    }
    console.log(`Demo tenant SMP ready: ${ctx.members.length} members. Log in as demo@velvet.example / velvet-demo.`);
  }
} finally {
  await dispose();
}
