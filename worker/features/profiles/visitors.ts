/** Visitors of a profile (footprints, §5 hiding rules): who looked, newest first. */
import { and, desc, eq, ne, sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { profiles, visitors } from "../../db/schema";
import type { VisitorEntry } from "../../contract/home";
import { iso } from "../../lib/time";
import { notBlockedWith } from "../members/visibility";
import { profileSummaryColumns, toProfileSummary, type Viewer } from "../members/profile-summary";

/** Visitors of `memberId`, newest first; visitors without nickname hidden (§5); blocks hide both ways. */
export async function visitorsOf(env: Env, memberId: string, viewer: Viewer, pageSize: number): Promise<VisitorEntry[]> {
  return toVisitors(await visitorsQuery(env, memberId, viewer?.memberId, pageSize), viewer);
}

/** `memberId` may be a subquery (a batch that does not know the id yet). */
export const visitorsQuery = (env: Env, memberId: SQLWrapper | string, viewerId: string | null | undefined, pageSize: number) =>
  getDb(env)
    .select({ ...profileSummaryColumns, dateUpd: visitors.dateUpd, visitCount: visitors.visitCount })
    .from(visitors)
    .innerJoin(profiles, eq(profiles.memberId, visitors.visitorId))
    .where(
      and(
        sql`${visitors.memberId} = ${memberId}`,
        ne(profiles.nickname, ""),
        eq(profiles.blocked, false),
        notBlockedWith(viewerId, visitors.visitorId),
        notBlockedWith(memberId, visitors.visitorId),
      ),
    )
    .orderBy(desc(visitors.dateUpd))
    .limit(pageSize);

export function toVisitors(rows: Awaited<ReturnType<typeof visitorsQuery>>, viewer: Viewer): VisitorEntry[] {
  return rows.map((row) => ({
    simpleCode: row.simpleCode,
    nickname: row.nickname,
    dateUpd: iso(row.dateUpd)!,
    visitCount: row.visitCount,
    profile: toProfileSummary(row, viewer),
  }));
}
