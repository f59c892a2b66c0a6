import { eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { members, profiles } from "../../db/schema";
import { AppError } from "../../http/app-error";

/** A posting pause runs while its end is in the future; it lifts by itself (README Decisions "Moderation"). */
export const isSuspended = (suspendedUntil: number | null | undefined, at = Date.now()) => suspendedUntil != null && suspendedUntil > at;

/**
 * §6/§8: blocked or reported members cannot send. Every send path (guestbook, leave message, chat, posts) calls
 * this first; a running suspension (`suspended_until` in the future: an operator's, or the automatic pause that
 * weighed established reporters), a suspended account or a profile flagged `blocked` gets 'report blocked - you
 * have been reported too many times…' (403209).
 */
export async function assertCanSend(env: Env, member: { memberId: string; status?: string }): Promise<void> {
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const row = await getDb(env)
    .select({ status: members.status, blocked: profiles.blocked, suspendedUntil: members.suspendedUntil })
    .from(members)
    .leftJoin(profiles, eq(profiles.memberId, members.id))
    .where(eq(members.id, member.memberId))
    .get();
  if (!row || row.status !== "active" || row.blocked || isSuspended(row.suspendedUntil)) throw new AppError("reportBlocked");
}
