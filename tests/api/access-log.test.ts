import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWorkerApp } from "../../worker/worker-app";

/**
 * README Deploy "Logs" and Decisions "Browser caching": a deployed worker writes one JSON line per request, pages and
 * media too, with the request id the member can report and never the query string; pages answer `private, no-cache`.
 * The test entry cannot load React Router's server build, so a stand-in page handler takes the page's place (the
 * middleware around it is the worker's own).
 */
const app = createWorkerApp(async (c) => c.html("<p>page</p>"));
const deployed = { ...env, APP_ENV: "staging" } as Env;

async function fetchAs(target: Env, path: string) {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`https://velvet.test${path}`), target, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The structured lines console.log received (other output is not JSON). */
function loggedLines(log: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return log.mock.calls.flatMap(([text]) => {
    try {
      return [JSON.parse(String(text)) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

afterEach(() => vi.restoreAllMocks());

describe("request log", () => {
  it("writes one line per request (API, page, media) with its request id, and never a query string", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const paths = ["/api/v7/public/health?token=secret-one", "/smp/login?next=secret-two", "/media/SMP/none/missing.jpg?sig=secret-three"];
    const ids: (string | null)[] = [];
    for (const path of paths) ids.push((await fetchAs(deployed, path)).headers.get("X-Request-ID"));
    const lines = loggedLines(log).filter((line) => "requestId" in line);
    expect(lines.map((line) => line.path)).toEqual(["/api/v7/public/health", "/smp/login", "/media/SMP/none/missing.jpg"]);
    expect(lines.map((line) => line.requestId)).toEqual(ids);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(JSON.stringify(log.mock.calls)).not.toMatch(/secret-(one|two|three)/);
  });

  it("stays quiet in local development, where wrangler logs each request itself", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await fetchAs(env, "/smp/login");
    expect(loggedLines(log).filter((line) => "requestId" in line)).toEqual([]);
  });
});

describe("page caching", () => {
  it("answers pages private and revalidated, and leaves the API's and media's own caching alone", async () => {
    expect((await fetchAs(deployed, "/smp/login")).headers.get("Cache-Control")).toBe("private, no-cache");
    expect((await fetchAs(deployed, "/api/v7/public/health")).headers.get("Cache-Control")).not.toBe("private, no-cache");
  });
});
