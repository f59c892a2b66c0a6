import { getDb } from "../../db/client";
import { feedback } from "../../db/schema";
import type { SessionMember } from "../../lib/session-member";
import { iso, now } from "../../lib/time";

/** §4 feedback (the confessional): stored for operators only; nothing is shown to other members. */
export async function submitFeedback(env: Env, member: SessionMember, projectCode: string, message: string) {
  const row = await getDb(env)
    .insert(feedback)
    .values({ projectCode, memberId: member.memberId, message, createdAt: now() })
    .returning({ idFeedback: feedback.idFeedback, createdAt: feedback.createdAt })
    .get();
  return { idFeedback: row.idFeedback, dateAdd: iso(row.createdAt)! };
}
