import { z } from "zod";

/** Notification types (inbox stream); rendered by the browser per type in the viewer's language. */
export const NotificationType = z.enum([
  "privateMessage",
  "guestbook",
  "follow",
  "friendRequest",
  "friendAccepted",
  "missionSubmitted",
  "missionReviewed",
  "flame",
  "aiImageReady",
  "submember",
  "messageRequest",
  // A moderation outcome for the member it affects (params: outcome, until, idAction, appealable).
  "moderation",
  // Someone asks to follow a member who approves followers (README Decisions "Approve followers").
  "followRequest",
  // A report the member made was decided (params: outcome "upheld" or "dismissed"); the operator stays unnamed.
  "reportOutcome",
  // The member's ticket won a daily draw (params: drawDate, coins); README Decisions "Collectibles and the daily lottery".
  "lotteryWon",
]);
export type NotificationType = z.infer<typeof NotificationType>;

export type NotificationItem = {
  idNotification: number;
  type: NotificationType;
  actorMemberNo: string | null;
  params: Record<string, unknown>;
  dateAdd: string;
  read: boolean;
};

/** GET /sns/notifications/vapid-key: the key the browser subscribes to web push with. */
export type VapidKey = { publicKey: string };
/** PUT /sns/notifications/source/{memberId}: the source saved; `subscribed` only when a push subscription came with it. */
export type PushSourceUpdated = { sourceKey: string; source: "WEB_PUSH"; subscribed?: boolean };
