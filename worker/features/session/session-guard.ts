import { AppError } from "../../lib/app-error";
import { now } from "../../lib/time";
import type { SessionMember } from "../../lib/session-member";
import { IsolateCache } from "../../lib/isolate-cache";
import { guardable, withStatementGuard, type StatementGuard } from "../../db/d1-session";

/**
 * A read request whose session this isolate has already looked up does not look it up again before its work:
 * the check rides as the FIRST statement of the request's first D1 batch (one round trip instead of two), or
 * runs alone before the first single statement. The guard statement raises an SQLite error unless the session
 * is still live and the member exactly as the request assumed (status, kycStatus, number, project), so a batch
 * — one D1 transaction — never returns or writes anything for a session that ended. Nothing of such a request
 * reaches the caller: `requireSession` answers 100003, or runs the request again with a fresh lookup when only
 * the member changed. A write deferred past the response (db/deferred-writes.ts) is written only if the check
 * passed, as when it rode in the request's batch.
 *
 * The guard is per request: `requireSession` arms it in the request's D1 frame (db/d1-session.ts
 * `withStatementGuard`, opened by http/d1-sessions.ts), and the request's routed binding applies it to that
 * request's batches and statements only. Nothing on D1's prototypes is touched.
 */

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

/** Whether this request can carry its session check in its D1 calls (it runs in a request's D1 session). */
export function guardsAvailable(db: D1Database): boolean {
  return guardable(db);
}

/** The guard of one request: its check statement (on the request's session) and, once known, its verdict. */
function sessionGuard(session: D1DatabaseSession, member: SessionMember): StatementGuard {
  const statement = session
    .prepare(GUARD_SQL)
    .bind(member.sessionId, member.memberId, member.projectCode, member.memberNo, member.status, member.kycStatus, now());
  let verdict: Promise<boolean> | undefined;
  const alone = () => (verdict ??= statement.first().then(() => true, () => false));
  return {
    async batch<T>(statements: D1PreparedStatement[], send: (list: D1PreparedStatement[]) => Promise<D1Result<T>[]>) {
      if (verdict) {
        if (!(await verdict)) throw new SessionGuardFailed();
        return send(statements);
      }
      let settle!: (ok: boolean) => void;
      verdict = new Promise<boolean>((resolve) => (settle = resolve));
      try {
        const results = await send([statement, ...statements]);
        settle(true);
        return results.slice(1);
      } catch (error) {
        // The transaction was rolled back: by the guard, or by a statement of the caller's own.
        const ok = await statement.first().then(() => true, () => false);
        settle(ok);
        throw ok ? error : new SessionGuardFailed();
      }
    },
    async beforeStatement() {
      if (!(await alone())) throw new SessionGuardFailed();
    },
    verdict: alone,
  };
}

/** Runs `work` (the rest of the request) with the member's check deferred into its D1 calls. */
export async function withSessionGuard(db: D1Database, member: SessionMember, work: () => Promise<void>): Promise<boolean> {
  const guard = await withStatementGuard(db, (session) => sessionGuard(session, member), work);
  // A request that never touched D1 (or swallowed the guard's error) is checked now.
  return guard ? guard.verdict() : false;
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
