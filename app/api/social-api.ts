import type {
  BlockCount,
  BlockCreated,
  BlockItem,
  FlameApproved,
  FlameInfo,
  FlameRequests,
  FollowInfo,
  FollowRequestItem,
  FriendAnswer,
  GuestbookCounts,
  GuestbookEntry,
  ListItem,
  MuteCreated,
  NotificationView,
  NotificationsRead,
  Page,
  ReportKind,
  SafetyDuration,
  Verification,
} from "../../worker/contract/social";
import { api } from "../lib/api";

/**
 * The social endpoints pages call (§7 core: follows, friends, favourites, blocks, mutes, reports, guestbooks, the flame), each
 * with its path, method and answer type written once. Every function answers the envelope `api()` gives.
 */


export const blockCount = (memberNo: string) => api<BlockCount>(`/private/core/blocks/count/${memberNo}`);

/** Follow, or undo a follow (which also withdraws a pending request). */
export const setFollow = (memberNo: string, follow: boolean) => api<FollowInfo>(`/private/core/follows/${memberNo}`, { method: follow ? "POST" : "DELETE" });

export const friendAction = (action: "request" | "accept" | "reject", targetMemberNo: string) =>
  api<FriendAnswer>(`/private/core/friends/${action}`, { body: { targetMemberNo } });
export const removeFriend = (memberNo: string) => api<FriendAnswer>(`/private/core/friends/${memberNo}`, { method: "DELETE" });

export const addFavourite = (targetMemberNo: string) => api("/private/core/favourites", { body: { targetMemberNo } });
export const removeFavourite = (memberNo: string) => api(`/private/core/favourites/${memberNo}`, { method: "DELETE" });

export const block = (targetMemberNo: string, duration: SafetyDuration, alsoNewAccounts: boolean) =>
  api<BlockCreated>("/private/core/blocks", { body: { targetMemberNo, duration, alsoNewAccounts } });
export const unblock = (idBlock: number) => api(`/private/core/blocks/${idBlock}`, { method: "DELETE" });
export const blocks = () => api<Page<BlockItem>>("/private/core/blocks?pageSize=30");

export const mute = (targetMemberNo: string, duration: SafetyDuration) => api<MuteCreated>("/private/core/mutes", { body: { targetMemberNo, duration } });
export const unmute = (memberNo: string) => api(`/private/core/mutes/${memberNo}`, { method: "DELETE" });

/** A report on a member, or on one item of theirs (`kind` and `itemId`; README Decisions "Block evasion and per-item reports"). */
export const report = (body: { targetMemberNo: string; reason: string; kind?: ReportKind; itemId?: number }) => api("/private/core/reports", { body });

export const leaveMessage = (code: string, text: string) => api("/private/core/leave-message", { body: { code, text } });

export const followRequests = () => api<Page<FollowRequestItem>>("/private/core/follow-requests?pageSize=100");
export const answerFollowRequest = (memberNo: string, answer: "accept" | "decline") =>
  api<FollowInfo>(`/private/core/follow-requests/${encodeURIComponent(memberNo)}/${answer}`, { method: "POST" });

export const following = (memberId: string) => api<Page<ListItem>>(`/private/core/following/${memberId}?pageSize=30`);
export const followers = (memberId: string) => api<Page<ListItem>>(`/private/core/followers/${memberId}?pageSize=30`);
export const removeFollower = (memberNo: string) => api(`/private/core/followers/${memberNo}`, { method: "DELETE" });

export const filteredNotifications = () => api<Page<NotificationView>>("/private/core/notifications/filtered?pageSize=50");

export const guestbookEntry = (idGuestbook: number) => api<GuestbookEntry>(`/private/core/guestbooks/entry/${idGuestbook}`);
export const deleteGuestbookEntry = (idGuestbook: number) => api(`/private/core/guestbooks/${idGuestbook}`, { method: "DELETE" });
export const writeGuestbook = (memberNo: string, message: string) => api(`/private/core/guestbooks/${memberNo}`, { body: { message } });
export const guestbookHistory = (memberNo: string) => api<Page<GuestbookEntry>>(`/private/core/guestbooks/history/${memberNo}?pageSize=50`);

export const lastFlame = (projectCode: string) => api<FlameInfo>(`/private/core/flame/${projectCode.toUpperCase()}/last`);
export const flameRequests = (projectCode: string) => api<FlameRequests>(`/private/core/flame/${projectCode.toUpperCase()}/requests`);
export const passFlame = (projectCode: string, targetMemberNo: string) =>
  api<FlameInfo>(`/private/core/flame/${projectCode.toUpperCase()}/delivery`, { body: { targetMemberNo } });
export const approveByFlame = (projectCode: string, targetMemberNo: string) =>
  api<FlameApproved>(`/private/core/flame/${projectCode.toUpperCase()}/approve`, { body: { targetMemberNo } });

/** The member's own verification state, and their one request to the flame holder (README Decisions "Verification"). */
export const myVerification = (projectCode: string) => api<Verification>(`/private/core/flame/${projectCode.toUpperCase()}/verification`);
export const askVerification = (projectCode: string) => api<Verification>(`/private/core/flame/${projectCode.toUpperCase()}/verification`, { method: "POST" });

export const guestbookPage = (memberId: string, pageSize: number, before: number) =>
  api<Page<GuestbookEntry> & GuestbookCounts>(`/private/core/guestbooks/${memberId}?pageSize=${pageSize}&before=${before}`);

/** Mark every notification read (answers the unread count left), or clear them all (§2 two-step). */
export const readNotifications = () => api<NotificationsRead>("/private/core/notifications/read", { body: {} });
export const clearNotifications = () => api("/private/core/notifications", { method: "DELETE" });
