import { AsyncLocalStorage } from "node:async_hooks";
import { keptIn } from "../lib/kept";

/**
 * README Decisions "D1 read replicas through sessions": every request runs its D1 work through ONE D1 session
 * (`DB.withSession`), so reads may be served by the nearest replica and a member still reads their own writes.
 *
 * A request's env is handed on with `DB` replaced by a routed binding: one object per real binding, kept for the
 * isolate's life, whose `prepare`/`batch` go to the session of the request they run in (AsyncLocalStorage).
 * Because it is one stable object, everything kept per binding keeps working unchanged on sessions: one drizzle
 * client per binding (`getDb`), compiled statements rendered once per isolate (compiled.ts). The request's
 * session guard, when armed, lives in the same per-request frame and is applied here (`batch`, and the single runs
 * of statements prepared here): nothing is patched on D1's prototypes. Outside a request (cron, Durable Objects
 * that did not open one) the routed binding falls through to the real one, i.e. the primary.
 *
 * Which session: the bookmark the caller carries (`x-d1-bookmark` header, else the `velvet_d1b` cookie) — at least
 * as fresh as the member's last write; without one, reads start `first-unconstrained` (any replica) and writes
 * `first-primary`. The session's last bookmark goes back on every response (`x-d1-bookmark`) and, after a write,
 * into the cookie, so the next page load reads through it.
 */

export const BOOKMARK_HEADER = "x-d1-bookmark";
export const BOOKMARK_COOKIE = "velvet_d1b";
/** How long the cookie keeps a bookmark: replicas catch up within seconds; an old bookmark is merely always met. */
export const BOOKMARK_COOKIE_MAX_AGE = 300;

type Constraint = "first-unconstrained" | "first-primary";
/**
 * What a request's D1 work runs in: its database (db/router.ts), its session, and — once requireSession arms it —
 * the request's session guard (features/session/session-guard.ts), applied by the routed binding below to every
 * statement and batch of this request only.
 */
type Frame = { binding: D1Database; session: D1DatabaseSession; start: string; serves: (tenant: string) => boolean; guard: StatementGuard | null };

/**
 * A per-request check riding on the request's D1 calls (session-guard.ts implements it). `batch` may put its own
 * statement first in the caller's batch (no extra round trip); `beforeStatement` runs before a single statement.
 */
export type StatementGuard = {
  batch<T>(statements: D1PreparedStatement[], send: (statements: D1PreparedStatement[]) => Promise<D1Result<T>[]>): Promise<D1Result<T>[]>;
  beforeStatement(): Promise<void>;
  /** Whether the request's check passed; runs it alone if no D1 call of the request carried it. */
  verdict(): Promise<boolean>;
};

const current = new AsyncLocalStorage<Frame>();
const routedBy = new WeakMap<D1Database, D1Database>();
const realOf = new WeakMap<object, D1Database>();

/** A bookmark as D1 writes them (hex groups and dashes); anything else a client sends is ignored. */
export function isBookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= 128 && /^[0-9a-f]{8}(?:-[0-9a-f]+){1,8}$/i.test(value);
}

/** The real binding behind a routed one (or the binding itself). */
export function realBinding(db: D1Database): D1Database {
  return realOf.get(db) ?? db;
}

/** The isolate's routed binding for `binding` (see above). */
export function routedBinding(binding: D1Database): D1Database {
  const real = realBinding(binding);
  return keptIn(routedBy, real, () => {
    const mine = () => {
      const frame = current.getStore();
      return frame && frame.binding === real ? frame : null;
    };
    const routed = {
      prepare: (query: string) => {
        const frame = mine();
        return frame ? guardedStatement(frame.session.prepare(query)) : real.prepare(query);
      },
      batch: <T = unknown>(statements: D1PreparedStatement[]) => {
        const frame = mine();
        if (!frame) return real.batch<T>(statements);
        const send = (list: D1PreparedStatement[]) => frame.session.batch<T>(list);
        return frame.guard ? frame.guard.batch<T>(statements, send) : send(statements);
      },
      // Schema work and sessions of their own go to the binding.
      exec: (query: string) => real.exec(query),
      withSession: (constraintOrBookmark?: string) => real.withSession(constraintOrBookmark),
      dump: () => real.dump(),
    } as unknown as D1Database;
    realOf.set(routed, real);
    return routed;
  });
}

/**
 * A statement of a request's session whose single runs (`first`/`all`/`run`/`raw`) wait for the guard of the
 * request running it, if one is armed (looked up at call time: drizzle and compiled.ts keep statements across
 * requests). Own properties on the statement itself, so D1's `batch` still takes it; `bind` returns a new
 * statement, which is wrapped in turn.
 */
const SINGLE_RUNS = ["first", "all", "run", "raw"] as const;
function guardedStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of SINGLE_RUNS) {
    const original = target[method]!;
    target[method] = async (...args: unknown[]) => {
      const guard = current.getStore()?.guard;
      if (guard) await guard.beforeStatement();
      return original.apply(statement, args);
    };
  }
  const bind = target.bind!;
  target.bind = (...values: unknown[]) => guardedStatement(bind.apply(statement, values) as D1PreparedStatement);
  return statement;
}

/** The env handed to a request's handlers: the same bindings, `DB` routed to the request's session. */
export function sessionEnv<E extends { DB: D1Database }>(env: E, db: D1Database = env.DB): E {
  if (realOf.has(env.DB) && realBinding(env.DB) === realBinding(db)) return env;
  return { ...env, DB: routedBinding(db) };
}

/**
 * Runs `work` with `makeGuard`'s guard armed on the request's D1 calls (requireSession does, through
 * session-guard.ts). Null when no request session is open on `db`: the caller then looks its session up first.
 */
export async function withStatementGuard(db: D1Database, makeGuard: (session: D1DatabaseSession) => StatementGuard, work: () => Promise<void>): Promise<StatementGuard | null> {
  const frame = current.getStore();
  if (!frame || frame.binding !== realBinding(db)) return null;
  const guard = makeGuard(frame.session);
  // A nested frame: the guard ends with `work` (a stale request run again starts unguarded).
  await current.run({ ...frame, guard }, work);
  return guard;
}

/** Whether a guard can be armed for `db` now (a request session is open on it). */
export function guardable(db: D1Database): boolean {
  const frame = current.getStore();
  return !!frame && realOf.has(db) && frame.binding === realBinding(db);
}

/** The guard armed for the code running now, if any (deferred writes keep its verdict). */
export const currentGuard = (): StatementGuard | null => current.getStore()?.guard ?? null;

/**
 * Whether the request running now may serve `tenant` (db/router.ts routes it to this request's database).
 * Outside a request: true. A project code routed elsewhere is "not found" here (http/tenant.ts, http/auth.ts).
 */
export function servesTenant(tenant: string): boolean {
  const frame = current.getStore();
  return !frame || frame.serves(tenant);
}

/** The database of the request running now, if one is open (a page's in-process API calls stay on it). */
export const currentD1Binding = (): D1Database | null => current.getStore()?.binding ?? null;

/** The session the code running now reads through, if any (for its bookmark). */
export function currentD1Session(): D1DatabaseSession | null {
  return current.getStore()?.session ?? null;
}

/**
 * Runs `work` inside a D1 session of `binding` started from `start` (a bookmark or a constraint), unless one is
 * already open here (a page's in-process API calls share the page's session). Returns the session's bookmark.
 */
export async function inD1Session<T>(
  binding: D1Database,
  start: string,
  work: () => Promise<T>,
  serves: (tenant: string) => boolean = () => true,
): Promise<{ result: T; bookmark: string | null; opened: boolean }> {
  const real = realBinding(binding);
  const open = current.getStore();
  if (open && open.binding === real) return { result: await work(), bookmark: open.session.getBookmark(), opened: false };
  const session = observed(real.withSession(start), start);
  const result = await current.run({ binding: real, session, start, serves, guard: null }, work);
  return { result, bookmark: session.getBookmark(), opened: true };
}

/** Where a request's session starts: the caller's bookmark, else by method (reads anywhere, writes at the primary). */
export function sessionStart(method: string, bookmark: string | null | undefined): string {
  if (isBookmark(bookmark)) return bookmark;
  const constraint: Constraint = method === "GET" || method === "HEAD" || method === "OPTIONS" ? "first-unconstrained" : "first-primary";
  return constraint;
}

// ── Round-trip observation (query-cost.ts and the bench's far-member simulation) ──────────────────────────────

/** One D1 round trip: its results, and whether it had to reach the primary. */
export type RoundTrip = { results: D1Result[]; primary: boolean };
type Observer = { after?: (trip: RoundTrip) => void; before?: (primary: boolean) => Promise<void> | void };
const observers: Observer[] = [];

/** query-cost.ts counts round trips here; it registers once per isolate. */
export function observeRoundTrips(observer: Observer) {
  observers.push(observer);
}

type Sender = { _send?: (endpoint: string, query: unknown, ...rest: unknown[]) => Promise<unknown> };
const WRITE = /^\s*(?:insert|update|delete|replace|create|drop|alter|pragma|vacuum|reindex)\b/i;
const sqlOf = (query: unknown): string[] =>
  (Array.isArray(query) ? query : [query]).map((q) => (typeof q === "string" ? q : String((q as { sql?: unknown })?.sql ?? "")));

/**
 * Hooks a session's one send path (`_send`, workerd's internal D1 client; when absent nothing is observed).
 * A round trip is primary-bound when it writes (D1 forwards writes to the primary), when it is the first of a
 * `first-primary` session, or when it goes through the plain binding (`alwaysPrimary`).
 */
export function observed<S extends object>(session: S, start: string | "always-primary"): S {
  const sender = session as Sender;
  const send = sender._send;
  if (typeof send !== "function" || !observers.length) return session;
  let first = true;
  sender._send = async function (this: unknown, endpoint: string, query: unknown, ...rest: unknown[]) {
    const primary = start === "always-primary" || (first && start === "first-primary") || sqlOf(query).some((text) => WRITE.test(text));
    first = false;
    for (const o of observers) await o.before?.(primary);
    const result = await send.call(this, endpoint, query, ...rest);
    const results = (Array.isArray(result) ? result : [result]) as D1Result[];
    for (const o of observers) o.after?.({ results, primary });
    return result;
  };
  return session;
}

const hookedPrimary = new WeakSet<object>();
/** Observes the plain binding too (always the primary), once per binding; false when its shape is unknown. */
export function observePlainBinding(binding: D1Database): boolean {
  const session = (realBinding(binding) as unknown as { alwaysPrimarySession?: Sender }).alwaysPrimarySession;
  if (!session || typeof session._send !== "function") return false;
  if (!hookedPrimary.has(session)) {
    hookedPrimary.add(session);
    observed(session, "always-primary");
  }
  return true;
}
