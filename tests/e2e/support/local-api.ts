import { execFileSync } from "node:child_process";
import path from "node:path";
import { type apiSignUp, baseUrl, previewFetch } from "./browser";

const root = path.resolve(import.meta.dirname, "../../..");

/**
 * `wrangler d1 execute` on this run's local D1. The running server writes to the same SQLite file, so a statement can
 * meet SQLITE_BUSY ("database is locked"): it is tried again after a short pause (nothing was applied), up to 5 times.
 */
function d1Execute(args: string[]): string {
  const stateDir = path.join(root, `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, ...args], { cwd: root, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      const output = `${(error as { stdout?: string }).stdout ?? ""}${(error as { stderr?: string }).stderr ?? ""}`;
      if (attempt >= 5 || !/SQLITE_BUSY|database is locked/.test(output)) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300 * attempt);
    }
  }
}

/** A statement on this run's local D1, as README "Running in production" does with wrangler (e.g. the first operator). */
export function localSql(command: string) {
  d1Execute(["--command", command]);
}

/** Rows straight from this run's local D1 (what the server keeps at rest), of every statement in `command`. */
export function localRows(command: string): Record<string, unknown>[] {
  const out = d1Execute(["--json", "--command", command]);
  return (JSON.parse(out) as { results?: Record<string, unknown>[] }[]).flatMap((statement) => statement.results ?? []);
}

export type Account = Awaited<ReturnType<typeof apiSignUp>>;

/** A private API call as `member`, for set-up and checks beside what the page shows. */
export async function apiCall(member: Account, method: string, apiPath: string, body?: unknown) {
  const response = await previewFetch(`${baseUrl()}/api/v7/private${apiPath}`, {
    method,
    headers: { ...member.headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { returnCode: string; info: any } };
}
