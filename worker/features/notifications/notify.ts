import { and, eq, gt } from "drizzle-orm";
import { waitUntil } from "cloudflare:workers";
import { getServerByName } from "partyserver";
import { getDb } from "../../db/client";
import { notifications } from "../../db/schema";
import type { NotificationItem, NotificationType } from "../../contract/notifications";
import { roomName } from "../../lib/room-names";
import { DAY } from "../../lib/time";
import { isBlockedBetween, isMutedBy } from "../members/visibility";
import { hasMutedWord, mutedPhrasesOf } from "../members/muted-words";
import { isFilteredFor, scopeOf } from "./sender-filter";
import { sendWebPush } from "./web-push";

type Notice = {
  projectCode: string;
  /** Recipient's private member id. */
  memberId: string;
  type: NotificationType;
  actor?: { memberId: string; memberNo: string } | null;
  params?: Record<string, unknown>;
  /** At most one such notice from this actor a day: a follow/unfollow or request/reject loop cannot re-notify. */
  oncePerDay?: boolean;
};

/**
 * Stores a notification in D1 (source of truth), then pushes it to the recipient's MemberInbox.
 * Skipped when the actor and recipient are blocked either way, or the recipient muted the actor — so a muted or
 * blocked sender never pushes either. With no socket of the member open, it goes out as a web push to the member's
 * live devices instead (README Decisions "Push that reaches a closed app").
 * A sender the recipient filters (sender-filter.ts) is stored for the "Filtered" section but sent nowhere: no socket
 * frame (so no sound or desktop notice) and no web push.
 * Call through `ctx.waitUntil` when the response should not wait for the push.
 */
export async function notify(env: Env, notice: Notice): Promise<NotificationItem | null> {
  const actorId = notice.actor?.memberId;
  if (actorId) {
    if (actorId === notice.memberId) return null;
    if ((await isBlockedBetween(env, actorId, notice.memberId)) || (await isMutedBy(env, notice.memberId, actorId))) return null;
  }
  const createdAt = Date.now();
  if (actorId && notice.oncePerDay && (await notifiedSince(env, notice, actorId, createdAt - DAY))) return null;
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
  if (actorId && (await isFilteredFor(env, notice.memberId, actorId, scopeOf(notice.type), createdAt))) return item;
  let openSockets = 0;
  try {
    const inbox = await getServerByName(env.MemberInbox, roomName(notice.projectCode, notice.memberId));
    openSockets = await inbox.deliver(await liveItem(env, notice.memberId, item, createdAt));
  } catch (error) {
    // The row is stored; the member sees it on next load. Log, never fail the action that caused it.
    console.warn(JSON.stringify({ level: "warn", message: "inbox push failed", error: String(error) }));
  }
  if (openSockets === 0) {
    const push = sendWebPush(env, notice, item).catch((error: unknown) => {
      console.warn(JSON.stringify({ level: "warn", message: "web push failed", error: error instanceof Error ? error.name : "unknown" }));
    });
    // A send that notifies (a private message) does not wait for the push service; the push outlives the response.
    try {
      waitUntil(push);
    } catch {
      await push;
    }
  }
  return item;
}

/**
 * The frame an open inbox gets: the item as stored (live pages act on its parameters, e.g. an AI image's id), with a
 * guestbook excerpt withheld when it holds one of the member's muted words, as the list does (README "Muted words").
 */
async function liveItem(env: Env, memberId: string, item: NotificationItem, at: number): Promise<NotificationItem> {
  const { params } = item;
  const phrases = typeof params.excerpt === "string" ? await mutedPhrasesOf(env, memberId, at) : [];
  return hasMutedWord(params.excerpt as string | undefined, phrases) ? { ...item, params: { ...params, excerpt: "" } } : item;
}

async function notifiedSince(env: Env, notice: Notice, actorId: string, since: number) {
  const n = notifications;
  const row = await getDb(env)
    .select({ id: n.idNotification })
    .from(n)
    .where(and(eq(n.memberId, notice.memberId), eq(n.actorMemberId, actorId), eq(n.type, notice.type), gt(n.createdAt, since)))
    .limit(1)
    .get();
  return row !== undefined;
}
