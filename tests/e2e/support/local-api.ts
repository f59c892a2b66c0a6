import { execFileSync } from "node:child_process";
import path from "node:path";
import { type apiSignUp, baseUrl, previewFetch } from "./browser";

const root = path.resolve(import.meta.dirname, "../../..");

/** A statement on this run's local D1, as README "Running in production" does with wrangler (e.g. the first operator). */
export function localSql(command: string) {
  const stateDir = path.join(root, `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`);
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--command", command], { cwd: root, stdio: "pipe" });
}

/** Rows straight from this run's local D1 (what the server keeps at rest), for journeys that check storage. */
export function localRows(command: string): Record<string, unknown>[] {
  const stateDir = path.join(root, `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`);
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", command], { cwd: root, encoding: "utf8" });
  return (JSON.parse(out) as { results: Record<string, unknown>[] }[])[0]!.results;
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
