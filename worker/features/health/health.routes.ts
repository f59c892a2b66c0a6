import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import type { AppEnv } from "../../http/types";

/**
 * Operational health checks, also the two baselines of the benchmark harness (tests/bench):
 * `/health` touches no storage; `/health/db` runs one trivial D1 query, the floor of any call that needs the database.
 */
export const healthPublic = new Hono<AppEnv>()
  .get("/health", (c) => c.json(ok({ status: "ok" })))
  .get("/health/db", async (c) => {
    const row = await c.env.DB.prepare("select 1 as up").first<{ up: number }>();
    return c.json(ok({ status: row?.up === 1 ? "ok" : "degraded" }));
  });
