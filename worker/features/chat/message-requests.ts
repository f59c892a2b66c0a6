// The requests tray (§7 message requests; README "Requests belong to the recipient"): listing and deciding.
import { and, desc, eq, not, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatMessageRequests } from "../../db/schema";
import { directChatroomId, type MessageRequest } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { filteredSender } from "../notifications/sender-filter";
import { profileSummaries, summaryRows } from "../members/profile-summary";
import { notBlockedWith } from "../members/visibility";
import { viewerContext, type ChatMember } from "./chat-access";

/**
 * Pending message requests: the requests tray, or with `filtered` its "Filtered" section (senders the member filters,
 * sender-filter.ts). Declined requests are listed nowhere.
 */
export async function listRequests(env: Env, member: ChatMember, filtered = false): Promise<MessageRequest[]> {
  const db = getDb(env);
  const isFiltered = filteredSender(member.memberId, chatMessageRequests.fromMemberId, "requests");
  const rows = await db
    .select()
    .from(chatMessageRequests)
    .where(
      and(
        eq(chatMessageRequests.memberId, member.memberId),
        eq(chatMessageRequests.status, "pending"),
        notBlockedWith(member.memberId, chatMessageRequests.fromMemberId),
        filtered ? isFiltered : not(isFiltered),
      ),
    )
    .orderBy(desc(chatMessageRequests.updatedAt))
    .limit(100);
  const summaries = await profileSummaries(env, member.projectCode, rows.map((r) => r.fromMemberId), await viewerContext(env, member));
  const counts = rows.length
    ? await db.all<{ from: string; n: number }>(sql`select member_id as "from", count(*) as n from chat_messages where to_member_id = ${member.memberId} and deleted = 0
        and member_id in (${sql.join(rows.map((r) => sql`${r.fromMemberId}`), sql`, `)}) group by member_id`)
    : [];
  const countOf = new Map(counts.map((c) => [c.from, c.n]));
  return rows.flatMap((r) => {
    const profile = summaries.get(r.fromMemberId);
    if (!profile) return [];
    return [{ idRequest: r.idRequest, status: r.status, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode), dateAdd: iso(r.createdAt)!, count: countOf.get(r.fromMemberId) ?? 0 }];
  });
}

export async function decideRequest(env: Env, member: ChatMember, idRequest: number, decision: "accept" | "decline") {
  const db = getDb(env);
  const row = await db
    .select()
    .from(chatMessageRequests)
    .where(and(eq(chatMessageRequests.idRequest, idRequest), eq(chatMessageRequests.memberId, member.memberId), eq(chatMessageRequests.projectCode, member.projectCode)))
    .get();
  if (!row) throw new AppError("notFound");
  const status = decision === "accept" ? "accepted" : "declined";
  await db.update(chatMessageRequests).set({ status, updatedAt: Date.now() }).where(eq(chatMessageRequests.idRequest, idRequest));
  const card = (await summaryRows(env, member.projectCode, [row.fromMemberId])).get(row.fromMemberId);
  return { idRequest, status, chatroomId: card ? directChatroomId(member.memberNo, card.simpleCode) : null };
}
