// Reminders on a message (§3 Reminder; §9 shown only for today's UTC date).
import { and, eq, lt, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatReminders } from "../../db/schema";
import type { Reminder } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { iso, utcDate, DAY } from "../../lib/time";
import { viewerContext, type ChatMember } from "./chat-access";
import { viewMessage } from "./chat-view";
import { loadStored } from "./chat-messages";


export async function createReminder(env: Env, member: ChatMember, input: { idChatroomMessage: number; title: string; description: string; remindAt: string }) {
  const stored = await loadStored(env, member.projectCode, input.idChatroomMessage, member);
  if (viewMessage(stored, await viewerContext(env, member)).placeholder) throw new AppError("notFound");
  const remindAt = Date.parse(input.remindAt);
  const row = await getDb(env)
    .insert(chatReminders)
    .values({ projectCode: member.projectCode, memberId: member.memberId, idChatroomMessage: input.idChatroomMessage, title: input.title, description: input.description, remindAt, createdAt: Date.now() })
    .returning()
    .get();
  return toReminder(row);
}

const toReminder = (r: typeof chatReminders.$inferSelect): Reminder => ({
  idReminder: r.idReminder,
  idChatroomMessage: r.idChatroomMessage,
  title: r.title,
  description: r.description,
  remindAt: iso(r.remindAt)!,
});

export async function todaysReminders(env: Env, member: ChatMember, at = Date.now()): Promise<Reminder[]> {
  const start = Date.parse(`${utcDate(at)}T00:00:00.000Z`);
  const rows = await getDb(env)
    .select()
    .from(chatReminders)
    .where(and(eq(chatReminders.memberId, member.memberId), sql`${chatReminders.remindAt} >= ${start}`, lt(chatReminders.remindAt, start + DAY)))
    .orderBy(chatReminders.remindAt)
    .limit(100);
  return rows.map(toReminder);
}
