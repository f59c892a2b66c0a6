import type { ChatListEntry, ChatMessage, ChatThread, EncryptedPayloadT, MessagePermission, MessageReacted, MessageRequest, Payload, PresenceEntry, RoomImageRevealed, ThreadPosted } from "../../worker/contract/chat";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { api } from "../lib/api";
import { readSession } from "../lib/session-keys";

/**
 * The chat endpoints pages call (§7 sns: rooms, messages, threads, reactions, requests, presence), each with its path,
 * method and answer type written once. `memberId` is the signed-in member's (the paths carry it, §7).
 */

export type EditedMessage = ChatMessage & { deleted?: boolean };
export type MessageWithThreads = ChatMessage & { threads?: ChatThread[] };

/** The per-item reveal of one blurred shared-room image: its original, checked on the server (room-image-blur.ts). */
export const revealRoomImage = (idChatroomMessage: number) =>
  api<RoomImageRevealed>(`/private/sns/chatroom/messages/${idChatroomMessage}/reveal-image`, { method: "POST" });

export const roomMessages = (chatroomId: string, pageSize: number) => api<ChatMessage[]>(`/private/sns/chatroom/${chatroomId}/messages?pageSize=${pageSize}`);
/** A photo's comment room (the server answers the list, as for every room). */
export const commentMessages = (chatroomId: string) => api<ChatMessage[]>(`/private/sns/chatroom/${chatroomId}/messages?pageSize=100`);
/** One member's latest messages in the public room (a visitor reads the public path, scoped to the tenant). */
export const memberMessages = (projectCode: string, memberNo: string) =>
  api<ChatMessage[]>(
    readSession()
      ? `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20&memberNo=${memberNo}`
      : `/public/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20&memberNo=${memberNo}&project=${projectCode.toUpperCase()}`,
  );
export const lastMessage = (chatroomId: string) => api<ChatMessage | null>(`/private/sns/chatroom/${chatroomId}/last-message`);
export const markRoomRead = (chatroomId: string) => api(`/private/sns/chatroom/${chatroomId}/read`, { method: "PUT", body: {} });
export const chatList = () => api<ChatListEntry[]>("/private/sns/chatroom/list?pageSize=100");

export const postMessage = (
  chatroomId: string,
  memberId: string,
  body: { message: string; payload?: Payload; requestId: string; toMemberNo?: string | null; isPrivate: boolean },
) => api<ChatMessage>(`/private/sns/chatrooms/${chatroomId}/messages/${memberId}`, { body });

/** One message; `showMuted` asks for a text withheld by the reader's muted words (README Decisions "Muted words"). */
export const message = (idChatroomMessage: number, showMuted = false) =>
  api<MessageWithThreads>(`/private/sns/chatroom/messages/${idChatroomMessage}${showMuted ? "?showMuted=true" : ""}`);
export const editMessage = (memberId: string, idChatroomMessage: number, text: string) =>
  api<EditedMessage>(`/private/sns/chatroom/messages/${memberId}/${idChatroomMessage}`, { method: "PUT", body: { message: text } });
export const deleteMessage = (memberId: string, idChatroomMessage: number) =>
  api(`/private/sns/chatroom/messages/${memberId}/${idChatroomMessage}?all=true`, { method: "DELETE" });
export const react = (memberId: string, idChatroomMessage: number, reactEmoji: string) =>
  api<MessageReacted>(`/private/sns/chatroom/messages/${memberId}/${idChatroomMessage}/react`, {
    method: "PUT",
    body: { replyPayload: { type: "emoji", reactEmoji } },
  });
export const acceptImage = (memberId: string, idChatroomMessage: number) =>
  api(`/private/sns/chatroom/messages/${memberId}/${idChatroomMessage}/accept-image`, { method: "PUT" });
/** A thread reply: plain `message`, or an end-to-end `payload` with `message` '' (README Decisions "Everything private is encrypted"). */
export const postThread = (memberId: string, body: { idChatroomMessage: number; message: string; isPrivate: boolean; payload?: EncryptedPayloadT }) =>
  api<ThreadPosted>(`/private/sns/chatroom/messages/threads/${memberId}`, { body });

export const addReminder = (body: { idChatroomMessage: number; title: string; description: string; remindAt: string }) => api("/private/core/reminders", { body });

export const messagePermission = (memberNo: string) => api<MessagePermission>(`/private/sns/message-permission/${memberNo}`);
export const messageRequests = () => api<MessageRequest[]>("/private/sns/message-requests");
export const filteredMessageRequests = () => api<MessageRequest[]>("/private/sns/message-requests/filtered");
export const decideMessageRequest = (idRequest: number, decision: "accept" | "decline") =>
  api(`/private/sns/message-requests/${idRequest}`, { method: "PUT", body: { decision } });
/** Decline this request and block its sender, or decline every pending request. */
export const declineMessageRequest = (idRequest: number, how: "decline-block" | "decline-all") =>
  api(`/private/sns/message-requests/${idRequest}/${how}`, { method: "POST", body: {} });

export const presence = (projectCode: string) => api<PresenceEntry[]>(`/private/sns/presence/${projectCode.toUpperCase()}?pageSize=30`);
