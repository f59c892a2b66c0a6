import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { d1Batch } from "../../db/d1-batch";
import { banners, personalChatrooms, profiles } from "../../db/schema";
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

/** SQL: the visible comment count of a personal room. */
const roomCommentCount = (projectCode: string, chatroomId: string) =>
  sql<number>`(select count(*) from chat_messages where project_code = ${projectCode} and chatroom_id = ${chatroomId} and deleted = 0)`;

/** A new photo starts with its owner's current count (the count belongs to the room, not to one photo). */
export const ownerCommentCount = (projectCode: string, memberNo: string) => roomCommentCount(projectCode, roomOf(memberNo));

const FILL_EVERY_MS = 60_000;
const lastFill = new Map<string, number>();

/** Bound parameters per D1 statement are limited (100): three per row. */
const ROWS_PER_INSERT = 30;

/**
 * The owner of a personal room. Members who signed up before the mapping existed are filled in for the whole tenant
 * the first time one of their rooms is missed (md5 runs only here), so this happens once per tenant.
 */
async function roomOwner(env: Env, projectCode: string, chatroomId: string): Promise<string | null> {
  const db = getDb(env);
  const known = await db
    .select({ memberId: personalChatrooms.memberId })
    .from(personalChatrooms)
    .where(and(eq(personalChatrooms.projectCode, projectCode), eq(personalChatrooms.chatroomId, chatroomId)))
    .get();
  if (known) return known.memberId;
  // Any 32-hex id is a personal room, most of them nobody's: the tenant scan runs at most once a minute per isolate
  // (sign-up writes every new member's row, so a filled tenant stays filled).
  const at = Date.now();
  if ((lastFill.get(projectCode) ?? -Infinity) > at - FILL_EVERY_MS) return null;
  lastFill.set(projectCode, at);
  const missing = await db
    .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), sql`not exists (select 1 from personal_chatrooms pc where pc.member_id = ${profiles.memberId})`))
    .all();
  if (missing.length === 0) return null;
  const rows = missing.map((m) => personalRoomRow(projectCode, m.memberId, m.memberNo));
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(db.insert(personalChatrooms).values(rows.slice(i, i + ROWS_PER_INSERT)).onConflictDoNothing());
  await d1Batch(env, inserts);
  return rows.find((r) => r.chatroomId === chatroomId)?.memberId ?? null;
}

/** After a post or delete in a personal room: recount and write it on every photo of the owner (same tenant only). */
export async function refreshPhotoCommentCount(env: Env, projectCode: string, chatroomId: string) {
  const owner = await roomOwner(env, projectCode, chatroomId);
  if (!owner) return;
  await getDb(env)
    .update(banners)
    .set({ threadCount: roomCommentCount(projectCode, chatroomId) })
    .where(and(eq(banners.projectCode, projectCode), eq(banners.memberId, owner)));
}
