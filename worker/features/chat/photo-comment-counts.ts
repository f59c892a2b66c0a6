import { sql } from "drizzle-orm";
import { personalChatroomId as roomOf, personalRoomRow } from "../members/personal-room";

/**
 * Photo comment counts (§2 home photo card comment icon, §4 banner threadCount; README Decisions "Photo comment
 * counts"): a banner's threadCount is the number of lines the comment modal lists for every viewer — the owner's
 * personal chatroom's top-level messages that are not deleted. A private one counts: every viewer sees its line, as
 * the §6 "private message" placeholder. Thread replies are not counted (they open under a message); per-viewer block
 * filtering is not reflected (one stored number). Every photo of the owner carries the same number. The count is
 * written here, in the worker, on each post and delete in a personal room, so the home page reads a stored column
 * (one D1 call).
 */

/** SQL: the visible comment count of a personal room (?1 project, ?2 room). */
const COUNT_SQL = "select count(*) from chat_messages where project_code = ?1 and chatroom_id = ?2 and deleted = 0";

/** A new photo starts with its owner's current count (the count belongs to the room, not to one photo). */
export const ownerCommentCount = (projectCode: string, memberNo: string) =>
  sql`(select count(*) from chat_messages where project_code = ${projectCode} and chatroom_id = ${roomOf(memberNo)} and deleted = 0)`;

const FILL_EVERY_MS = 60_000;
const lastFill = new Map<string, number>();

/** Bound parameters per D1 statement are limited (100): three per row. */
const ROWS_PER_INSERT = 30;

/**
 * The owner of a personal room. Members who signed up before the mapping existed are filled in for the whole tenant
 * the first time one of their rooms is missed (md5 runs only here), so this happens once per tenant.
 */
async function roomOwner(env: Env, projectCode: string, chatroomId: string): Promise<string | null> {
  const known = await env.DB.prepare("select member_id as memberId from personal_chatrooms where project_code = ?1 and chatroom_id = ?2")
    .bind(projectCode, chatroomId)
    .first<{ memberId: string }>();
  if (known) return known.memberId;
  // Any 32-hex id is a personal room, most of them nobody's: the tenant scan runs at most once a minute per isolate
  // (sign-up writes every new member's row, so a filled tenant stays filled).
  const at = Date.now();
  if ((lastFill.get(projectCode) ?? -Infinity) > at - FILL_EVERY_MS) return null;
  lastFill.set(projectCode, at);
  const missing = (
    await env.DB.prepare(
      `select p.member_id as memberId, p.simple_code as memberNo from profiles p
        where p.project_code = ?1 and not exists (select 1 from personal_chatrooms pc where pc.member_id = p.member_id)`,
    )
      .bind(projectCode)
      .all<{ memberId: string; memberNo: string }>()
  ).results;
  if (missing.length === 0) return null;
  const rows = missing.map((m) => personalRoomRow(projectCode, m.memberId, m.memberNo));
  const statements = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    statements.push(
      env.DB.prepare(`insert or ignore into personal_chatrooms (project_code, chatroom_id, member_id) values ${chunk.map(() => "(?, ?, ?)").join(", ")}`).bind(
        ...chunk.flatMap((r) => [r.projectCode, r.chatroomId, r.memberId]),
      ),
    );
  }
  await env.DB.batch(statements);
  return rows.find((r) => r.chatroomId === chatroomId)?.memberId ?? null;
}

/** After a post or delete in a personal room: recount and write it on every photo of the owner (same tenant only). */
export async function refreshPhotoCommentCount(env: Env, projectCode: string, chatroomId: string) {
  const owner = await roomOwner(env, projectCode, chatroomId);
  if (!owner) return;
  await env.DB.prepare(`update banners set thread_count = (${COUNT_SQL}) where project_code = ?1 and member_id = ?3`).bind(projectCode, chatroomId, owner).run();
}
