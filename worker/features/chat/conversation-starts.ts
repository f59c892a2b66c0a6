import { and, eq, ne, sql } from "drizzle-orm";
import type { MessagePermission } from "../../contract/chat";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { chatMessageRequests } from "../../db/schema";
import { findMember } from "../members/members";
import type { ChatMember } from "./chat-access";
import { acceptsDirectly } from "./contact-settings";

/**
 * Who started a private conversation (README "Requests belong to the recipient"): the requests tray is the
 * recipient's alone. A member who has been written to privately by the other is answering, never asking: their
 * message is delivered directly, and answering accepts the request the other's first message left in their tray.
 */
export async function answersTheOther(env: Env, senderId: string, recipientId: string): Promise<boolean> {
  const db = getDb(env);
  const row = await db.get<{ wrote: number }>(
    sql`select exists (select 1 from chat_messages where member_id = ${recipientId} and to_member_id = ${senderId}) as wrote`,
  );
  if (!row?.wrote) return false;
  await db
    .update(chatMessageRequests)
    .set({ status: "accepted", updatedAt: Date.now() })
    .where(and(eq(chatMessageRequests.memberId, senderId), eq(chatMessageRequests.fromMemberId, recipientId), ne(chatMessageRequests.status, "accepted")));
  return true;
}

/**
 * The sender's side of their unanswered first messages: the counterparts whose tray still holds this member's
 * request. A decline reads as still waiting, so a sender never learns they were turned down.
 */
export async function waitingOn(env: Env, memberId: string, others: string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const rows = await getDb(env).all<{ id: string }>(
    sql`select member_id as id from chat_message_requests where from_member_id = ${memberId} and status <> 'accepted'
      and member_id in (${sql.join(others.map((o) => sql`${o}`), sql`, `)})`,
  );
  return new Set(rows.map((r) => r.id));
}


/**
 * May the caller message this member, and will the first message wait in their requests tray? The same rules
 * sendMessage enforces (blocks either way are "not found"; contact settings route a stranger to the tray).
 */
export async function messagePermission(env: Env, member: ChatMember, memberNo: string): Promise<MessagePermission> {
  const target = await findMember(env, member.projectCode, memberNo, member.memberId);
  if (target.blockedEitherWay) throw new AppError("notFound");
  const db = getDb(env);
  // The conversation page titles itself with this (a closed profile's stub shows the nickname too).
  const nickname = (await db.get<{ nickname: string | null }>(sql`select nickname from profiles where member_id = ${target.memberId}`))?.nickname ?? "";
  if (target.memberId === member.memberId) return { memberNo, nickname, canMessage: false, reason: "self", asRequest: false };
  if (member.status && member.status !== "active") return { memberNo, nickname, canMessage: false, reason: "paused", asRequest: false };
  const facts = await db.get<{ kycStatus: number; multiGender: number | null; wrote: number; accepted: number }>(sql`select p.kyc_status as kycStatus, p.multi_gender as multiGender,
      exists (select 1 from chat_messages where member_id = ${target.memberId} and to_member_id = ${member.memberId}) as wrote,
      exists (select 1 from chat_message_requests where member_id = ${target.memberId} and from_member_id = ${member.memberId} and status = 'accepted') as accepted
    from profiles p where p.member_id = ${member.memberId}`);
  const direct =
    Boolean(facts?.wrote || facts?.accepted) ||
    (await acceptsDirectly(env, target.memberId, { memberId: member.memberId, kycStatus: facts?.kycStatus ?? 0, multiGender: facts?.multiGender ?? null }));
  return { memberNo, nickname, canMessage: true, reason: null, asRequest: !direct };
}
