import { AsyncLocalStorage } from "node:async_hooks";
import { AppError } from "../../lib/app-error";
import { now } from "../../lib/time";
import type { SessionMember } from "../../lib/session-member";
import { IsolateCache } from "../../lib/isolate-cache";
import { checkDeferredWritesWith } from "../../db/deferred-writes";

/**
 * A read request whose session this isolate has already looked up does not look it up again before its work:
 * the check rides as the FIRST statement of the request's first D1 batch (one round trip instead of two), or
 * runs alone before the first single statement. The guard statement raises an SQLite error unless the session
 * is still live and the member exactly as the request assumed (status, kycStatus, number, project), so a batch
 * — one D1 transaction — never returns or writes anything for a session that ended. Nothing of such a request
 * reaches the caller: `requireSession` answers 100003, or runs the request again with a fresh lookup when only
 * the member changed.
 *
 * The hooks sit on the binding's public methods (`batch`, and `first`/`all`/`run`/`raw` of its statements).
 * When they cannot be installed, every request looks its session up first, as before.
 */

type Guard = { statement: D1PreparedStatement; verdict?: Promise<boolean>; first?: D1PreparedStatement["first"] };

const current = new AsyncLocalStorage<Guard>();

// A write deferred past the response (db/deferred-writes.ts) is written only if its request's check passed, as
// when it rode in the request's batch (a failed check rolled it back).
checkDeferredWritesWith(() => {
  const guard = current.getStore();
  if (!guard) return null;
  return () => (guard.verdict ??= guard.first ? runAlone(guard.first, guard.statement) : Promise.resolve(false));
});
const installed = new WeakMap<D1Database, boolean>();
type Original = { batch: D1Database["batch"]; first: D1PreparedStatement["first"] };
const originals = new WeakMap<object, Original>();

/** Thrown by a D1 call whose request's session check failed; known to the error envelope, never logged as a 500. */
export class SessionGuardFailed extends AppError {
  constructor() {
    super("sessionInvalid");
  }
}

const GUARD_SQL = `select json(case when exists (
  select 1 from sessions s
  join members m on m.id = s.member_id
  join profiles p on p.member_id = s.member_id
  where s.id = ?1 and s.member_id = ?2 and s.project_code = ?3 and m.simple_code = ?4 and m.status = ?5 and p.kyc_status = ?6
    and s.ended_at is null and s.expires_at > ?7
) then '1' else 'session ended or member changed' end) as session_ok`;

/** Installs the hooks on this binding once; false when the binding does not have the expected shape. */
export function guardsAvailable(db: D1Database): boolean {
  const known = installed.get(db);
  if (known !== undefined) return known;
  let ok = false;
  try {
    ok = install(db);
  } catch {
    ok = false;
  }
  installed.set(db, ok);
  return ok;
}

function install(db: D1Database): boolean {
  const statementProto = Object.getPrototypeOf(db.prepare("select 1")) as Record<string, unknown>;
  const methods = ["first", "all", "run", "raw"] as const;
  if (typeof db.batch !== "function" || methods.some((m) => typeof statementProto[m] !== "function")) return false;

  const batch = db.batch;
  // The statement prototype is shared: a second binding finds it hooked already and takes the original from there.
  const first = originals.get(statementProto)?.first ?? (statementProto.first as D1PreparedStatement["first"]);
  originals.set(db, { batch, first });

  db.batch = async function guardedBatch<T>(this: D1Database, statements: D1PreparedStatement[]) {
    const guard = current.getStore();
    if (!guard) return batch.call(this, statements) as Promise<D1Result<T>[]>;
    if (guard.verdict) {
      if (!(await guard.verdict)) throw new SessionGuardFailed();
      return batch.call(this, statements) as Promise<D1Result<T>[]>;
    }
    let settle!: (ok: boolean) => void;
    guard.verdict = new Promise<boolean>((resolve) => (settle = resolve));
    try {
      const results = await batch.call(this, [guard.statement, ...statements]);
      settle(true);
      return results.slice(1) as D1Result<T>[];
    } catch (error) {
      // The transaction was rolled back: by the guard, or by a statement of the caller's own.
      const ok = await runAlone(first, guard.statement);
      settle(ok);
      throw ok ? error : new SessionGuardFailed();
    }
  };

  // Statements are shared by every binding of the isolate: hook the prototype once.
  if (!originals.has(statementProto)) {
    originals.set(statementProto, { batch, first });
    for (const method of methods) {
      const original = statementProto[method] as (...args: unknown[]) => Promise<unknown>;
      statementProto[method] = async function (this: D1PreparedStatement, ...args: unknown[]) {
        const guard = current.getStore();
        if (guard) await settled(guard, first);
        return original.apply(this, args);
      };
    }
  }
  return true;
}

async function runAlone(first: D1PreparedStatement["first"], statement: D1PreparedStatement): Promise<boolean> {
  try {
    await first.call(statement);
    return true;
  } catch {
    return false;
  }
}

async function settled(guard: Guard, first: D1PreparedStatement["first"]) {
  guard.verdict ??= runAlone(first, guard.statement);
  if (!(await guard.verdict)) throw new SessionGuardFailed();
}

/** Runs `work` (the rest of the request) with the member's check deferred into its D1 calls. */
export async function withSessionGuard(db: D1Database, member: SessionMember, work: () => Promise<void>): Promise<boolean> {
  const guard: Guard = {
    statement: db
      .prepare(GUARD_SQL)
      .bind(member.sessionId, member.memberId, member.projectCode, member.memberNo, member.status, member.kycStatus, now()),
    first: originals.get(db)?.first,
  };
  await current.run(guard, work);
  // A request that never touched D1 (or swallowed the guard's error) is checked now.
  const original = originals.get(db);
  if (!original) return false;
  guard.verdict ??= runAlone(original.first, guard.statement);
  return guard.verdict;
}

/**
 * What this isolate learned from earlier lookups, by credential (token hash or ticket session id): only a
 * hint of who the caller claims to be — every use is checked by the guard above. Bounded, oldest first out.
 */
const MAX_CLAIMS = 10_000;
const CLAIM_TTL_MS = 5 * 60_000;
const claims = new IsolateCache<string, SessionMember>({ maxEntries: MAX_CLAIMS });

export const sessionClaims = {
  get: (key: string): SessionMember | undefined => claims.get(key, Date.now(), CLAIM_TTL_MS),
  set: (key: string, member: SessionMember) => claims.set(key, member, Date.now()),
  delete: (key: string) => claims.delete(key),
};
