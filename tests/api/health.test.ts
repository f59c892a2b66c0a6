import { describe, expect, it } from "vitest";
import { call, expectOk, signUp } from "../support/client";

describe("health checks (also the benchmark baselines)", () => {
  it("answers GET /health without touching storage, on v6 and v7", async () => {
    for (const version of [6, 7] as const) {
      const reply = await call("GET", "/public/health", { version });
      expect(expectOk(reply)).toEqual({ status: "ok" });
      expect(reply.headers.get("X-D1-Queries")).toBe("0");
      expect(reply.headers.get("X-D1-Rows-Read")).toBe("0");
    }
  });

  it("answers GET /health/db with one trivial D1 query", async () => {
    const reply = await call("GET", "/public/health/db");
    expect(expectOk(reply)).toEqual({ status: "ok" });
    expect(reply.headers.get("X-D1-Queries")).toBe("1");
    expect(Number(reply.headers.get("X-D1-Rows-Read"))).toBeLessThanOrEqual(1);
  });

  it("refuses other methods with the 404 envelope", async () => {
    const reply = await call("POST", "/public/health", { body: {} });
    expect(reply.status).toBe(404);
    expect(reply.body.returnCode).toBe("404000");
  });
});

describe("query cost headers (outside production)", () => {
  it("count every D1 round trip and the rows it read, including batched and raw reads", async () => {
    const member = await signUp();
    const reply = await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "api" } });
    expectOk(reply);
    const queries = Number(reply.headers.get("X-D1-Queries"));
    // At least the session lookup of requireSession; the figure is a count, not a guess.
    expect(queries).toBeGreaterThanOrEqual(1);
    expect(Number(reply.headers.get("X-D1-Rows-Read"))).toBeGreaterThanOrEqual(1);
  });
});
