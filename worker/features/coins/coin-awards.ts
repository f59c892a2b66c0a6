import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { coinLedger } from "../../db/schema";

/**
 * §9 M coin: 1 per post reply received (once per post per replier), 1 per photo rated (once per photo per
 * rater), and the owner's master also gets 1. Returns statements to put in the SAME `db.batch` as the action,
 * so the award is atomic with it; the ledger's unique key makes retries and races count once.
 */
export function coinAwardStatements(
  db: Db,
  award: { projectCode: string; memberId: string; reason: "replyReceived" | "photoRated" | string; sourceKey: string; amount?: number },
): BatchItem<"sqlite">[] {
  const amount = award.amount ?? 1;
  const at = Date.now();
  // Query builders, not `db.run(sql)`: drizzle's D1 batch cannot bind parameters of raw statements.
  return [
    db
      .insert(coinLedger)
      .values({ projectCode: award.projectCode, memberId: award.memberId, currency: "mcoin", amount, reason: award.reason, sourceKey: award.sourceKey, createdAt: at })
      .onConflictDoNothing(),
    // The master's share is keyed by the same source, so it too is paid once.
    db
      .insert(coinLedger)
      .select(
        sql`select null, project_code, master_member_id, 'mcoin', ${amount}, ${`master:${award.reason}`}, ${`${award.memberId}:${award.sourceKey}`}, ${at}
          from submembers where member_id = ${award.memberId} and project_code = ${award.projectCode}`,
      )
      .onConflictDoNothing(),
  ];
}

/** Balance = sum of the ledger. */
export async function coinBalance(db: Db, memberId: string) {
  const row = await db.get<{ mcoin: number | null; scoin: number | null }>(sql`select
    sum(case when currency = 'mcoin' then amount else 0 end) as mcoin,
    sum(case when currency = 'scoin' then amount else 0 end) as scoin
    from coin_ledger where member_id = ${memberId}`);
  return { mcoin: row?.mcoin ?? 0, scoin: row?.scoin ?? 0 };
}
