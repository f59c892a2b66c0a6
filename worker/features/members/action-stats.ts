/** §3 Action stats: every member action counted in an hour-of-day histogram, recorded by whichever feature acts. */
import { sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { actionStats } from "../../db/schema";
import type { ActionStat } from "../../contract/profiles";

/** Records one action of a member in their hour-of-day histogram (§3 Action stats). Use in a batch. */
export function actionStatement(env: Env, projectCode: string, memberId: string, at = Date.now()) {
  const hour = new Date(at).getUTCHours();
  // Query builders, not db.run(sql): drizzle's D1 batch cannot bind parameters of raw statements.
  return getDb(env)
    .insert(actionStats)
    .values({ memberId, projectCode, actionHour: hour, actionCount: 1 })
    .onConflictDoUpdate({ target: [actionStats.memberId, actionStats.actionHour], set: { actionCount: sql`${actionStats.actionCount} + 1` } });
}

/** 24 entries, UTC hours 0..23 (the page shifts them to local time). */
export async function actionStatsFor(env: Env, memberId: string): Promise<ActionStat[]> {
  return toActionStats(await actionStatsQuery(env, memberId));
}

/** `memberId` may be a subquery (a batch that does not know the id yet). */
export const actionStatsQuery = (env: Env, memberId: SQLWrapper | string) =>
  getDb(env)
    .select({ actionHour: actionStats.actionHour, actionCount: actionStats.actionCount })
    .from(actionStats)
    .where(sql`${actionStats.memberId} = ${memberId}`);

export function toActionStats(rows: { actionHour: number; actionCount: number }[]): ActionStat[] {
  const byHour = new Map(rows.map((r) => [r.actionHour, r.actionCount]));
  return Array.from({ length: 24 }, (_, hour) => ({ actionHour: hour, actionCount: byHour.get(hour) ?? 0 }));
}
