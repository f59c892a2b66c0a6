import { getServerByName } from "partyserver";
import { getDb } from "../../db/client";
import { notifications } from "../../db/schema";
import type { NotificationItem, NotificationType } from "../../contract/notifications";
import { roomName } from "../../rooms/socket-auth";
import { isBlockedBetween, isMutedBy } from "../social/visibility";

type Notice = {
  projectCode: string;
  /** Recipient's private member id. */
  memberId: string;
  type: NotificationType;
  actor?: { memberId: string; memberNo: string } | null;
  params?: Record<string, unknown>;
};

/**
 * Stores a notification in D1 (source of truth), then pushes it to the recipient's MemberInbox.
 * Skipped when the actor and recipient are blocked either way, or the recipient muted the actor.
 * Call through `ctx.waitUntil` when the response should not wait for the push.
 */
export async function notify(env: Env, notice: Notice): Promise<NotificationItem | null> {
  const actorId = notice.actor?.memberId;
  if (actorId) {
    if (actorId === notice.memberId) return null;
    if ((await isBlockedBetween(env, actorId, notice.memberId)) || (await isMutedBy(env, notice.memberId, actorId))) return null;
  }
  const createdAt = Date.now();
  const params = notice.params ?? {};
  const row = await getDb(env)
    .insert(notifications)
    .values({ projectCode: notice.projectCode, memberId: notice.memberId, type: notice.type, actorMemberId: actorId ?? null, params: JSON.stringify(params), createdAt })
    .returning({ idNotification: notifications.idNotification })
    .get();
  const item: NotificationItem = {
    idNotification: row.idNotification,
    type: notice.type,
    actorMemberNo: notice.actor?.memberNo ?? null,
    params,
    dateAdd: new Date(createdAt).toISOString(),
    read: false,
  };
  try {
    const inbox = await getServerByName(env.MemberInbox, roomName(notice.projectCode, notice.memberId));
    await inbox.deliver(item);
  } catch (error) {
    // The row is stored; the member sees it on next load. Log, never fail the action that caused it.
    console.warn(JSON.stringify({ level: "warn", message: "inbox push failed", error: String(error) }));
  }
  return item;
}
