import { currentGuard, realBinding } from "./d1-session";

/**
 * Writes a read only causes as a side effect (a profile view's page view, footprint and activity hour; a search's
 * keyword counters) leave the read's own round trip: they are queued here and written after the response, all
 * of an isolate's queued writes in ONE batch on the primary (README Decisions "D1 read replicas through
 * sessions"). The read itself is then served by a replica: 0 primary round trips per read page in the bench.
 *
 * The request middleware (http/d1-sessions.ts) flushes after each response with `waitUntil`. Tests wait with
 * `settleDeferredWrites()` (never a timed sleep).
 */

type Statement = { toSQL(): { sql: string; params: unknown[] } };
type Group = { binding: D1Database; statements: D1PreparedStatement[]; stillValid: (() => Promise<boolean>) | null };

const queue: Group[] = [];
const inFlight = new Set<Promise<void>>();
/** The flush waiting for the one in flight: later requests' writes ride on it. */
let next: Promise<void> | null = null;

/** Queues drizzle statements (query builders or compiled items) to be written after the response. */
export function deferWrites(env: { DB: D1Database }, statements: readonly Statement[]): void {
  if (!statements.length) return;
  const binding = realBinding(env.DB);
  queue.push({
    binding,
    statements: statements.map((statement) => {
      const { sql, params } = statement.toSQL();
      return binding.prepare(sql).bind(...params);
    }),
    // A request whose session guard fails (session-guard.ts) writes nothing: answered 100003 (or run again), as
    // when the write rode in its rolled-back batch.
    stillValid: guardVerdict(),
  });
}

function guardVerdict(): (() => Promise<boolean>) | null {
  const guard = currentGuard();
  return guard ? () => guard.verdict() : null;
}

export const hasDeferredWrites = () => queue.length > 0;

/**
 * Writes what is queued (one batch per binding); the promise settles when it is written. Group commit: at most one
 * write is in flight per isolate, and what is queued while it runs waits for it and goes in the next batch, so under
 * load many views cost one transaction on the primary, not one each (README Decisions "D1 read replicas through
 * sessions"). The waiting flush runs in the context of the request that started it, whose `waitUntil` holds it.
 */
export function flushDeferredWrites(): Promise<void> {
  if (next) return next;
  if (!queue.length) return Promise.resolve();
  const previous = [...inFlight];
  // Settled, not fulfilled: a failed write before must not stop this one (nor leave `next` pointing at it forever).
  const flight: Promise<void> = Promise.allSettled(previous)
    .then(() => {
      if (next === flight) next = null;
      return write(queue.splice(0));
    })
    .finally(() => inFlight.delete(flight));
  if (previous.length) next = flight;
  inFlight.add(flight);
  return flight;
}

/** Flushes and waits until every queued or in-flight deferred write has been written. */
export async function settleDeferredWrites(): Promise<void> {
  flushDeferredWrites();
  while (inFlight.size || queue.length) {
    await Promise.all([...inFlight]);
    flushDeferredWrites();
  }
}

async function write(groups: Group[]) {
  const kept: Group[] = [];
  for (const group of groups) if (!group.stillValid || (await group.stillValid())) kept.push(group);
  const bindings = new Set(kept.map((g) => g.binding));
  for (const binding of bindings) {
    const mine = kept.filter((g) => g.binding === binding);
    try {
      await binding.batch(mine.flatMap((g) => g.statements));
    } catch {
      // A batch is one transaction: one bad group must not lose the others' counts.
      for (const group of mine) {
        try {
          await binding.batch(group.statements);
        } catch (error) {
          console.warn(JSON.stringify({ level: "warn", message: "deferred write failed", error: String(error) }));
        }
      }
    }
  }
}

/** Queued and in-flight deferred writes of this isolate (tests see that a view left one). */
export const deferredWritesPending = () => queue.length + inFlight.size;
