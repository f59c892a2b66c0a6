// Web push sources (§7 notifications source update {sourceKey} and count for WEB_PUSH).
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { notifications } from "../../db/schema";
import type { PushSourceUpdated } from "../../contract/notifications";
import type { ChatMember } from "./chat-access";
import { unreadCounts } from "./chat-inbox";


export async function updatePushSource(env: Env, member: ChatMember, sourceKey: string): Promise<PushSourceUpdated> {
  const at = Date.now();
  await getDb(env).run(sql`insert into chat_push_sources (member_id, source_key, project_code, source, last_count_at, updated_at)
    values (${member.memberId}, ${sourceKey}, ${member.projectCode}, 'WEB_PUSH', ${at}, ${at})
    on conflict (member_id, source_key) do update set updated_at = ${at}`);
  return { sourceKey, source: "WEB_PUSH" };
}

/** Unread notifications since the source last counted (all unread without a known source). */
export async function pushCount(env: Env, member: ChatMember, sourceKey?: string) {
  const db = getDb(env);
  const source = sourceKey
    ? await db.get<{ lastCountAt: number }>(sql`select last_count_at as lastCountAt from chat_push_sources where member_id = ${member.memberId} and source_key = ${sourceKey}`)
    : null;
  const since = source?.lastCountAt ?? 0;
  const row = await db.get<{ n: number }>(
    sql`select count(*) as n from ${notifications} where ${notifications.memberId} = ${member.memberId} and ${notifications.readAt} is null and ${notifications.createdAt} > ${since}`,
  );
  const unread = await unreadCounts(env, member);
  return { source: "WEB_PUSH", count: (row?.n ?? 0) + unread.total, notifications: row?.n ?? 0, messages: unread.total };
}
