import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { appendFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

const root = path.resolve(import.meta.dirname, "../../..");
const port = Number(process.env.E2E_PORT ?? 4317);
const stateDir = path.join(root, `.wrangler/e2e-state-${port}`);
let server: ChildProcess | undefined;

/** Fresh local D1/R2/DO state, migrations applied, then the production build under `vite preview`. */
export default async function setup(project: TestProject) {
  rmSync(stateDir, { recursive: true, force: true });
  // Every bound database (DB and DB_TST: README Decisions "A tenant per database").
  execFileSync("node", ["scripts/d1-migrate.mjs", "--local", "--persist-to", stateDir], { cwd: root, stdio: "pipe" });
  server = spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, VELVET_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  // E2E_SERVER_LOG=<file> keeps the worker's own output (its warnings, console lines) for a failing journey.
  const keep = (d: Buffer) => {
    log += d;
    if (process.env.E2E_SERVER_LOG) appendFileSync(process.env.E2E_SERVER_LOG, d);
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    try {
      const response = await fetch(`${base}/api/v7/public/ping-not-found`);
      if (response.status === 404) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  if (Date.now() - started >= 60_000) throw new Error(`preview did not start:\n${log}`);
  project.provide("baseUrl", base);
  return () => {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
