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
