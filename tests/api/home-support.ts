import { env } from "cloudflare:test";
import type { SessionMember } from "../../worker/lib/session-member";
import { signUp, type Member } from "../support/client";

/** Gives a member a qualified avatar with its blurred rendition (and optional fields) the way the profile API would have stored them. */
export async function complete(member: Member, fields: Record<string, string | number | null> = {}) {
  const values = {
    nickname: `Nick ${member.memberNo}`,
    avator: `/media/SMP/${member.memberNo}/avatar/x.jpg`,
    avator_blur: `/media/SMP/${member.memberNo}/blur/y.jpg`,
    qualify: 1,
    ...fields,
  };
  const keys = Object.keys(values);
  await env.DB.prepare(`update profiles set ${keys.map((k) => `${k} = ?`).join(", ")} where member_id = ?`)
    .bind(...Object.values(values), member.memberId)
    .run();
}

export const asSession = (m: Member): SessionMember => ({ memberId: m.memberId, memberNo: m.memberNo, projectCode: m.projectCode, sessionId: m.sessionId, status: "active", kycStatus: 0 });

/** Wraps the D1 binding to count round trips: each batch is one, each single statement execution is one. */
export function countingDb(db: D1Database) {
  const stats = { roundTrips: 0, batches: 0, rowsRead: [] as number[] };
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (prop === "all" || prop === "first" || prop === "run" || prop === "raw") {
          return (...args: unknown[]) => {
            stats.roundTrips++;
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, stmt);
    return proxy;
  };
  const counting = {
    prepare: (query: string) => wrap(db.prepare(query)),
    batch: async (statements: D1PreparedStatement[]) => {
      stats.roundTrips++;
      stats.batches++;
      const results = await db.batch(statements.map((s) => originals.get(s) ?? s));
      stats.rowsRead = results.map((r) => r.meta.rows_read);
      return results;
    },
    exec: (query: string) => {
      stats.roundTrips++;
      return db.exec(query);
    },
  } as unknown as D1Database;
  return { db: counting, stats };
}

export async function many(n: number, project = "SMP") {
  const out: Member[] = [];
  for (let i = 0; i < n; i++) out.push(await signUp(project));
  return out;
}
