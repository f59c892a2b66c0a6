/**
 * One way to reach D1 (README Decisions "One way to reach D1; the session guard per request").
 *
 * - Where `env.DB` comes from: a request's D1 is set up once, in http/d1-sessions.ts — its tenant's database
 *   (db/router.ts `databaseFor`), its D1 session (db/d1-session.ts), and the frame the request's session guard is
 *   armed in (features/session/session-guard.ts, by requireSession). Code outside a request takes its database from
 *   the router too: rooms from their name (rooms/socket-auth.ts `roomEnv`), scheduled jobs each database once
 *   (scheduled.ts). Nothing else picks a binding.
 * - How a service reads and writes: `getDb(env)` — drizzle builders, and `sql` through `db.get/all/run` for what
 *   builders do not say. Several statements in one round trip: the helpers beside this file (`flatBatch` for flat
 *   selects, `compiled` for hot fixed shapes, `deferWrites` for a read's side writes) or drizzle's `db.batch`.
 * - `env.DB.prepare` is for worker/db/ itself and for SQL made from table metadata (privacy export and erasure);
 *   every call outside worker/db/ is listed, with why, in tests/unit/house-rules.test.ts.
 * Everything above goes through the request's routed binding, so it runs in the request's session and carries
 * its session guard without knowing either.
 */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import { keptIn } from "../lib/kept";

export type Db = ReturnType<typeof createDb>;

const createDb = (binding: D1Database) => drizzle(binding, { schema });

// `drizzle(…, { schema })` walks the whole schema to build its relational config; measured in the API
// benchmark that walk was 5–12% of a request's CPU when done per call. The instance holds no request state,
// so one per binding (the env lives as long as the isolate) serves every request.
const instances = new WeakMap<D1Database, Db>();

export function getDb(env: { DB: D1Database }): Db {
  return keptIn(instances, env.DB, () => createDb(env.DB));
}
