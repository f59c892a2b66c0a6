import { AsyncLocalStorage } from "node:async_hooks";
import { keptIn } from "../lib/kept";

/**
 * README Decisions "D1 read replicas through sessions": every request runs its D1 work through ONE D1 session
 * (`DB.withSession`), so reads may be served by the nearest replica and a member still reads their own writes.
 *
 * A request's env is handed on with `DB` replaced by a routed binding: one object per real binding, kept for the
 * isolate's life, whose `prepare`/`batch` go to the session of the request they run in (AsyncLocalStorage).
 * Because it is one stable object, everything kept per binding keeps working unchanged on sessions: one drizzle
 * client per binding (`getDb`), compiled statements rendered once per isolate (compiled.ts), the session guard's
 * hooks (session-guard.ts hooks the routed binding's `batch`; statements of a session share the binding's
 * statement prototype, checked in tests/api/d1-sessions.test.ts). Outside a request (cron, Durable Objects that
 * did not open one) the routed binding falls through to the real one, i.e. the primary.
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
type Frame = { binding: D1Database; session: D1DatabaseSession; start: string };

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
    const target = () => {
      const frame = current.getStore();
      return frame && frame.binding === real ? frame.session : real;
    };
    const routed = {
      prepare: (query: string) => target().prepare(query),
      batch: <T = unknown>(statements: D1PreparedStatement[]) => target().batch<T>(statements),
      // Schema work and sessions of their own go to the binding.
      exec: (query: string) => real.exec(query),
      withSession: (constraintOrBookmark?: string) => real.withSession(constraintOrBookmark),
      dump: () => real.dump(),
    } as unknown as D1Database;
    realOf.set(routed, real);
    return routed;
  });
}

/** The env handed to a request's handlers: the same bindings, `DB` routed to the request's session. */
export function sessionEnv<E extends { DB: D1Database }>(env: E): E {
  if (realOf.has(env.DB)) return env;
  return { ...env, DB: routedBinding(env.DB) };
}

/** The session the code running now reads through, if any (for its bookmark). */
export function currentD1Session(): D1DatabaseSession | null {
  return current.getStore()?.session ?? null;
}

/**
 * Runs `work` inside a D1 session of `binding` started from `start` (a bookmark or a constraint), unless one is
 * already open here (a page's in-process API calls share the page's session). Returns the session's bookmark.
 */
export async function inD1Session<T>(binding: D1Database, start: string, work: () => Promise<T>): Promise<{ result: T; bookmark: string | null; opened: boolean }> {
  const real = realBinding(binding);
  const open = current.getStore();
  if (open && open.binding === real) return { result: await work(), bookmark: open.session.getBookmark(), opened: false };
  const session = observed(real.withSession(start), start);
  const result = await current.run({ binding: real, session, start }, work);
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
