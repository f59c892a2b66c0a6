import { AsyncLocalStorage } from "node:async_hooks";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types";

/**
 * Outside production, every response says what it cost in D1: `X-D1-Queries` (round trips, a batch is one),
 * `X-D1-Rows-Read` (sum of `meta.rows_read`) and `X-D1-SQL-Ms` (sum of `meta.duration`, time inside SQLite). The benchmark harness (tests/bench) reads them.
 * A page's in-process API calls add to the page's own totals.
 *
 * `raw()` and `first()` drop `meta`, so the count hooks the binding's one send path (`_send`): it is
 * workerd's internal D1 client; when it is absent nothing is hooked and no header is sent.
 */
type Cost = { queries: number; rowsRead: number; sqlMs: number; parent?: Cost };
type Session = { _send?: (...args: unknown[]) => Promise<unknown> };

const current = new AsyncLocalStorage<Cost>();
const hooked = new WeakSet<object>();

function hook(db: D1Database): boolean {
  const session = (db as unknown as { alwaysPrimarySession?: Session }).alwaysPrimarySession;
  const send = session?._send;
  if (!session || typeof send !== "function") return false;
  if (hooked.has(session)) return true;
  hooked.add(session);
  session._send = async function (...args: unknown[]) {
    const result = await send.apply(this, args);
    let rowsRead = 0;
    let sqlMs = 0;
    for (const r of Array.isArray(result) ? result : [result]) {
      rowsRead += (r as D1Result)?.meta?.rows_read ?? 0;
      sqlMs += (r as D1Result)?.meta?.duration ?? 0;
    }
    for (let cost = current.getStore(); cost; cost = cost.parent) {
      cost.queries += 1;
      cost.rowsRead += rowsRead;
      cost.sqlMs += sqlMs;
    }
    return result;
  };
  return true;
}

export const queryCost = createMiddleware<AppEnv>(async (c, next) => {
  if (c.env.APP_ENV === "production" || c.req.header("Upgrade") || !hook(c.env.DB)) return next();
  const cost: Cost = { queries: 0, rowsRead: 0, sqlMs: 0, parent: current.getStore() };
  await current.run(cost, next);
  try {
    c.res.headers.set("X-D1-Queries", String(cost.queries));
    c.res.headers.set("X-D1-Rows-Read", String(cost.rowsRead));
    c.res.headers.set("X-D1-SQL-Ms", cost.sqlMs.toFixed(2));
  } catch {
    // Immutable headers (a proxied response): the figures are only a development aid.
  }
});
