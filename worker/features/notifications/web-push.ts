import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { pushSubscriptions, sessions } from "../../db/schema";
import type { NotificationItem } from "../../contract/notifications";
import type { SessionMember } from "../../lib/session-member";
import { isQuiet, quietHoursQuery, toQuietHours } from "./quiet-hours";

/**
 * Web push to a closed app (README Decisions "Push that reaches a closed app"): RFC 8291 aes128gcm payloads signed
 * with VAPID (RFC 8292) by @block65/webcrypto-web-push (WebCrypto only). Subscriptions are per device and session.
 */

export type PushSubscriptionInput = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * What a lock screen may show (README Decisions): no name, no message text, not even the kind of notice — the
 * service worker (public/sw.js) shows one generic line in the device's language and opens `url` on click.
 */
export type PushPayload = { v: 1; url: string; tag: string };

/** A queued push older than this is dropped by the push service: a stale "something new" helps nobody. */
const PUSH_TTL_SECONDS = 12 * 60 * 60;

const sessionLive = (at: number) =>
  sql`exists (select 1 from ${sessions} s where s.id = ${pushSubscriptions.sessionId} and s.ended_at is null and s.expires_at > ${at})`;

/**
 * Registers this device (the caller's session) for push. The endpoint is unique: a row of the same member moves to
 * this session; another member's row is taken over only once its session has ended (a shared browser after the
 * other account's session ended), never while it is live — so nobody can silence or redirect a live device of
 * someone else by replaying its endpoint. Answers whether this device is now registered.
 */
export async function registerPushSubscription(env: Env, member: SessionMember, subscription: PushSubscriptionInput): Promise<boolean> {
  const db = getDb(env);
  const at = Date.now();
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, subscription.endpoint), ne(pushSubscriptions.memberId, member.memberId), sql`not ${sessionLive(at)}`));
  const row = await db
    .insert(pushSubscriptions)
    .values({
      projectCode: member.projectCode,
      memberId: member.memberId,
      sessionId: member.sessionId,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      createdAt: at,
    })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { sessionId: member.sessionId, projectCode: member.projectCode, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, createdAt: at },
      setWhere: eq(pushSubscriptions.memberId, member.memberId),
    })
    .returning({ id: pushSubscriptions.idSubscription })
    .get();
  return row !== undefined;
}

/** Removes one of the caller's own devices by endpoint; another member's endpoint is "not found" (false). */
export async function removePushSubscription(env: Env, member: SessionMember, endpoint: string): Promise<boolean> {
  const gone = await getDb(env)
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.memberId, member.memberId)))
    .returning({ id: pushSubscriptions.idSubscription });
  return gone.length > 0;
}

/** Logout of a device ends its push too (the account deletion walk removes the rest: member_id column). */
export async function removeSessionSubscriptions(env: Env, sessionId: string) {
  await getDb(env).delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/** The member's devices whose session is still live; an ended session's device gets nothing. */
function liveSubscriptions(env: Env, memberId: string, projectCode: string) {
  return getDb(env)
    .select({ id: pushSubscriptions.idSubscription, endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.memberId, memberId), eq(pushSubscriptions.projectCode, projectCode), sessionLive(Date.now())))
    .limit(20);
}

export function pushPayload(projectCode: string, _item: NotificationItem): PushPayload {
  // One tag: a newer push replaces the older one on the device instead of stacking a list of "new" lines.
  return { v: 1, url: `/${projectCode.toLowerCase()}/notification`, tag: "velvet-inbox" };
}

/**
 * Sends the notice to every live device of the member. A 404/410 answer means the browser dropped the subscription:
 * the row goes. Other failures are logged without the endpoint (a capability URL) and never fail the caller.
 */
export async function sendWebPush(env: Env, recipient: { memberId: string; projectCode: string }, item: NotificationItem): Promise<number> {
  // One round trip: the devices and the member's quiet hours. During quiet hours nothing is pushed; the notice is
  // already in the inbox (notify.ts stores it first), so it waits there.
  const [targets, quiet] = await getDb(env).batch([liveSubscriptions(env, recipient.memberId, recipient.projectCode), quietHoursQuery(env, recipient.memberId)]);
  if (targets.length === 0 || isQuiet(toQuietHours(quiet[0]))) return 0;
  const payload = pushPayload(recipient.projectCode, item);
  const vapid = { subject: env.VAPID_SUBJECT, publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  const gone: number[] = [];
  let sent = 0;
  await Promise.all(
    targets.map(async (target) => {
      try {
        const request = await buildPushPayload(
          { data: payload, options: { ttl: PUSH_TTL_SECONDS, urgency: "normal", topic: "velvet-inbox" } },
          { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } },
          vapid,
        );
        const response = await fetch(target.endpoint, { method: "POST", headers: request.headers, body: request.body });
        await response.body?.cancel();
        if (response.status === 404 || response.status === 410) gone.push(target.id);
        else if (response.ok) sent++;
        else console.warn(JSON.stringify({ level: "warn", message: "web push refused", status: response.status }));
      } catch (error) {
        console.warn(JSON.stringify({ level: "warn", message: "web push failed", error: error instanceof Error ? error.name : "unknown" }));
      }
    }),
  );
  if (gone.length) await getDb(env).delete(pushSubscriptions).where(inArray(pushSubscriptions.idSubscription, gone));
  return sent;
}
