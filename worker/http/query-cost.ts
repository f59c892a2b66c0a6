import { AsyncLocalStorage } from "node:async_hooks";
import { createMiddleware } from "hono/factory";
import { observePlainBinding, observeRoundTrips } from "../db/d1-session";
import type { AppEnv } from "./types";

/**
 * Outside production, every response says what it cost in D1: `X-D1-Queries` (round trips, a batch is one),
 * `X-D1-Primary-Queries` (those that had to reach the primary: writes, a `first-primary` session's first, the
 * plain binding — d1-session.ts), `X-D1-Rows-Read` (sum of `meta.rows_read`) and `X-D1-SQL-Ms` (sum of
 * `meta.duration`, time inside SQLite). The benchmark harness (tests/bench) reads them.
 * A page's in-process API calls add to the page's own totals.
 *
 * `raw()` and `first()` drop `meta`, so the count hooks the sessions' one send path (`_send`, workerd's internal
 * D1 client, d1-session.ts `observed`); when it is absent nothing is hooked and no header is sent.
 *
 * The bench's far-member simulation (tests/bench/suites/query-cost.mjs): in development only, a request carrying
 * `X-Bench-D1-Delay: <primary ms>,<replica ms>` waits that long before each round trip of its kind, as a member
 * far from the primary and near a replica would.
 */
type Cost = { queries: number; primaryQueries: number; rowsRead: number; sqlMs: number; delay?: { primary: number; replica: number }; parent?: Cost };

const current = new AsyncLocalStorage<Cost>();
const MAX_DELAY_MS = 1000;

observeRoundTrips({
  before: (primary) => {
    let delay: Cost["delay"];
    for (let cost = current.getStore(); cost && !delay; cost = cost.parent) delay = cost.delay;
    const ms = delay ? (primary ? delay.primary : delay.replica) : 0;
    return ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : undefined;
  },
  after: ({ results, primary }) => {
    let rowsRead = 0;
    let sqlMs = 0;
    for (const r of results) {
      rowsRead += r?.meta?.rows_read ?? 0;
      sqlMs += r?.meta?.duration ?? 0;
    }
    for (let cost = current.getStore(); cost; cost = cost.parent) {
      cost.queries += 1;
      if (primary) cost.primaryQueries += 1;
      cost.rowsRead += rowsRead;
      cost.sqlMs += sqlMs;
    }
  },
});

function benchDelay(header: string | undefined): Cost["delay"] {
  const m = header?.match(/^\s*(\d{1,4})\s*,\s*(\d{1,4})\s*$/);
  if (!m) return undefined;
  return { primary: Math.min(MAX_DELAY_MS, Number(m[1])), replica: Math.min(MAX_DELAY_MS, Number(m[2])) };
}

export const queryCost = createMiddleware<AppEnv>(async (c, next) => {
  if (c.env.APP_ENV === "production" || c.req.header("Upgrade") || !observePlainBinding(c.env.DB)) return next();
  const parent = current.getStore();
  const cost: Cost = { queries: 0, primaryQueries: 0, rowsRead: 0, sqlMs: 0, parent, delay: parent || c.env.APP_ENV !== "development" ? undefined : benchDelay(c.req.header("X-Bench-D1-Delay")) };
  await current.run(cost, next);
  try {
    c.res.headers.set("X-D1-Queries", String(cost.queries));
    c.res.headers.set("X-D1-Primary-Queries", String(cost.primaryQueries));
    c.res.headers.set("X-D1-Rows-Read", String(cost.rowsRead));
    c.res.headers.set("X-D1-SQL-Ms", cost.sqlMs.toFixed(2));
  } catch {
    // Immutable headers (a proxied response): the figures are only a development aid.
  }
});
