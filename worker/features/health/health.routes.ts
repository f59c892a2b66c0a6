import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { ok } from "../../contract/envelope";
import { getDb } from "../../db/client";
import type { AppEnv } from "../../http/types";

/**
 * Operational health checks, also the two baselines of the benchmark harness (tests/bench):
 * `/health` touches no storage; `/health/db` runs one trivial D1 query, the floor of any call that needs the database.
 * The probe goes through `getDb` like every service (README Decisions "One way to reach D1"): it still hits the
 * request's routed binding in one round trip, and the floor it measures then includes the thin drizzle layer every
 * real call pays — a raw `prepare` here would measure a path no service takes.
 */
export const healthPublic = new Hono<AppEnv>()
  .get("/health", (c) => c.json(ok({ status: "ok" })))
  .get("/health/db", async (c) => {
    const row = await getDb(c.env).get<{ up: number }>(sql`select 1 as up`);
    return c.json(ok({ status: row?.up === 1 ? "ok" : "degraded" }));
  });
