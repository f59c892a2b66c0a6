import { eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { members, profiles } from "../../db/schema";
import { AppError } from "../../http/app-error";

/**
 * §6/§8: blocked or reported members cannot send anywhere. Every send path (guestbook, leave message,
 * chat, posts) calls this first; a suspended account (auto-suspended by reports) or a profile flagged
 * `blocked` gets 'report blocked - you have been reported too many times…' (403209).
 */
export async function assertCanSend(env: Env, member: { memberId: string; status?: string }): Promise<void> {
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const row = await getDb(env)
    .select({ status: members.status, blocked: profiles.blocked })
    .from(members)
    .leftJoin(profiles, eq(profiles.memberId, members.id))
    .where(eq(members.id, member.memberId))
    .get();
  if (!row || row.status !== "active" || row.blocked) throw new AppError("reportBlocked");
}
