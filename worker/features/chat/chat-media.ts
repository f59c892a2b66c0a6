import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { getDb } from "../../db/client";
import { chatMedia, chatMessages } from "../../db/schema";
import { isBlockedBetween } from "../members/visibility";

/**
 * Images of private messages (README Decisions "Private media"): uploaded as R2 kind `dm` (never served by /media),
 * recorded here for the uploader, bound at send time to the one private message that carries them, and served by
 * /private-media to that message's sender and recipient only.
 */
export function recordChatImageStatement(db: Db, input: { key: string; projectCode: string; memberId: string }) {
  return db.insert(chatMedia).values({ mediaKey: input.key, projectCode: input.projectCode, memberId: input.memberId, createdAt: Date.now() });
}

/**
 * The sender's own private upload, not yet sent — or already sent in the message with this request id (a retried
 * send answers the stored message).
 */
export async function ownUnsentChatImage(env: Env, member: { memberId: string; projectCode: string }, key: string, requestId: string) {
  const row = await getDb(env)
    .select({ key: chatMedia.mediaKey })
    .from(chatMedia)
    .where(
      and(
        eq(chatMedia.mediaKey, key),
        eq(chatMedia.memberId, member.memberId),
        eq(chatMedia.projectCode, member.projectCode),
        or(isNull(chatMedia.idChatroomMessage), eq(chatMedia.idChatroomMessage, sentWith(member.memberId, requestId))),
      ),
    )
    .get();
  return Boolean(row);
}

const sentWith = (memberId: string, requestId: string) =>
  sql`(select ${chatMessages.idChatroomMessage} from ${chatMessages} where ${chatMessages.memberId} = ${memberId} and ${chatMessages.requestId} = ${requestId})`;

/** Binds the image to the message just inserted (same batch as the insert). */
export function bindChatImageStatement(db: Db, key: string, memberId: string, requestId: string) {
  return db
    .update(chatMedia)
    .set({ idChatroomMessage: sentWith(memberId, requestId) })
    .where(and(eq(chatMedia.mediaKey, key), eq(chatMedia.memberId, memberId), isNull(chatMedia.idChatroomMessage)));
}

/** The record of a private image whose message was deleted (its file is deleted after the batch). */
export function forgetChatImageStatement(db: Db, key: string, memberId: string) {
  return db.delete(chatMedia).where(and(eq(chatMedia.mediaKey, key), eq(chatMedia.memberId, memberId)));
}

/**
 * May this member read this private image (re-checked on every request)? Its uploader; or the recipient of the
 * live private message it was sent in, unless a block stands between them. Visitors and other tenants: never.
 */
export async function mayReadChatImage(env: Env, projectCode: string, key: string, member: { memberId: string; projectCode: string } | null) {
  if (!member || member.projectCode !== projectCode) return false;
  const row = await getDb(env)
    .select({ owner: chatMedia.memberId, recipient: chatMessages.toMemberId, isPrivate: chatMessages.isPrivate, deleted: chatMessages.deleted })
    .from(chatMedia)
    .leftJoin(chatMessages, eq(chatMessages.idChatroomMessage, chatMedia.idChatroomMessage))
    .where(and(eq(chatMedia.mediaKey, key), eq(chatMedia.projectCode, projectCode)))
    .get();
  if (!row) return false;
  if (row.owner === member.memberId) return true;
  if (row.recipient !== member.memberId || !row.isPrivate || row.deleted) return false;
  return !(await isBlockedBetween(env, member.memberId, row.owner));
}
