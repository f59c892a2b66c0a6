import { and, eq, inArray, or } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatMessages, missions } from "../../db/schema";
import { DIRECT_CHATROOM } from "../../contract/chat.constants";
import type { NotificationType } from "../../contract/notifications";
import type { ProfileSummary } from "../../contract/profile-summary";
import type { NotificationTarget } from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";

type Row = { type: string; params: Record<string, unknown> };

/**
 * The parameters each type's view renders (app/features/social/notification-items.tsx); everything else stored with a
 * notification (ids now carried by `target`, a sender's nickname at the time, an AI prompt) stays on the server.
 */
const SHOWN_PARAMS: Record<NotificationType, readonly string[]> = {
  privateMessage: [],
  messageRequest: [],
  guestbook: ["excerpt"],
  follow: [],
  friendRequest: [],
  friendAccepted: [],
  missionSubmitted: ["subject"],
  missionReviewed: ["subject"],
  flame: ["action", "by"],
  aiImageReady: [],
  submember: ["event"],
  moderation: ["outcome", "until", "idAction", "appealable"],
  followRequest: [],
  reportOutcome: ["outcome"],
  lotteryWon: ["drawDate", "coins"],
};

export function shownParams(type: string, params: Record<string, unknown>): Record<string, unknown> {
  const keys = SHOWN_PARAMS[type as NotificationType] ?? [];
  return Object.fromEntries(keys.filter((k) => k in params).map((k) => [k, params[k]]));
}

const idOf = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null);

/**
 * What each notification opens for `member`, checked against what they may open now (README "Notifications open what
 * they are about"): a message only when it was written to them in their tenant (a one-to-one room as the
 * conversation, a private reply in a shared room as its note, deleted ones not at all); a mission only when they own
 * it (mission) or review it (review); a member's profile only when the actor is visible to them (`actors` holds only
 * same-tenant members; notifications from members blocked either way or muted are not listed at all).
 */
export async function notificationTargets(env: Env, member: SessionMember, rows: Row[], actors: (ProfileSummary | null)[]): Promise<(NotificationTarget | null)[]> {
  const db = getDb(env);
  const messageIds = rows.flatMap((r) => (r.type === "privateMessage" && idOf(r.params.idChatroomMessage) ? [idOf(r.params.idChatroomMessage)!] : []));
  const missionIds = rows.flatMap((r) => (r.type.startsWith("mission") && idOf(r.params.idMission) ? [idOf(r.params.idMission)!] : []));
  const [messageRows, missionRows] = await Promise.all([
    messageIds.length
      ? db
          .select({ id: chatMessages.idChatroomMessage, chatroomId: chatMessages.chatroomId, deleted: chatMessages.deleted })
          .from(chatMessages)
          .where(and(inArray(chatMessages.idChatroomMessage, messageIds), eq(chatMessages.projectCode, member.projectCode), eq(chatMessages.toMemberId, member.memberId)))
      : [],
    missionIds.length
      ? db
          .select({ id: missions.idMission, owner: missions.memberId, reviewer: missions.reviewerMemberId })
          .from(missions)
          .where(and(inArray(missions.idMission, missionIds), eq(missions.projectCode, member.projectCode), or(eq(missions.memberId, member.memberId), eq(missions.reviewerMemberId, member.memberId))))
      : [],
  ]);
  const messagesById = new Map(messageRows.map((m) => [m.id, m]));
  const missionsById = new Map(missionRows.map((m) => [m.id, m]));

  return rows.map((row, i): NotificationTarget | null => {
    const actor = actors[i] ?? null;
    const profile: NotificationTarget | null = actor ? { kind: "profile", memberNo: actor.simpleCode } : null;
    switch (row.type as NotificationType) {
      case "follow":
      case "friendRequest":
      case "friendAccepted":
      case "followRequest":
        return profile;
      case "submember":
        // "won": the bidder's new sub-member waits on the market; the other events are about the member who acted.
        return row.params.event === "won" ? { kind: "market" } : profile;
      case "guestbook":
        return { kind: "guestbook" };
      case "flame":
        // The holder approves a request on the requester's profile; the flame and verification show on home.
        if (row.params.action === "requested") return profile;
        return row.params.action === "aiRoom" ? { kind: "aiRoom" } : { kind: "home" };
      case "aiImageReady":
        return { kind: "aiRoom" };
      case "lotteryWon":
        return { kind: "lottery" };
      case "messageRequest":
        return { kind: "requests" };
      case "privateMessage": {
        const message = messagesById.get(idOf(row.params.idChatroomMessage) ?? 0);
        if (!message) return null;
        if (DIRECT_CHATROOM.test(message.chatroomId)) return { kind: "conversation", chatroomId: message.chatroomId };
        return message.deleted ? null : { kind: "note", idChatroomMessage: message.id };
      }
      case "missionSubmitted":
      case "missionReviewed": {
        const mission = missionsById.get(idOf(row.params.idMission) ?? 0);
        if (!mission) return null;
        if (row.type === "missionSubmitted") return mission.reviewer === member.memberId ? { kind: "review", idMission: mission.id } : null;
        return mission.owner === member.memberId ? { kind: "mission", idMission: mission.id } : null;
      }
      default:
        // moderation: the notice itself carries the appeal; nothing else to open.
        return null;
    }
  });
}
