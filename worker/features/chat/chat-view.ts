import { PRIVATE_PLACEHOLDER, type ChatMessage, type ChatReaction, type ChatThread, type EncryptedPayloadT, type Payload } from "../../contract/chat";
import type { ProfileSummary } from "../../contract/profile-summary";
import { toProfileSummary, type SummaryRow } from "../members/profile-summary";
import type { StrangerRule } from "../members/stranger-media";

/**
 * A message as stored, with everything needed to render it for any viewer. The API and the ChatRoom both
 * turn it into the viewer's ChatMessage with `viewMessage`, so the §6 rules live in one place.
 */
export type StoredMessage = {
  idChatroomMessage: number;
  requestId: string;
  chatroomId: string;
  memberId: string;
  memberNo: string;
  message: string;
  payload: Payload | null;
  isPrivate: boolean;
  toMemberId: string | null;
  toMemberNo: string | null;
  imageAccepted: boolean;
  threadCount: number;
  deleted: boolean;
  dateAdd: string;
  dateUdp: string;
  /** The cards' rows (original and rendition); each viewer's avatars are chosen below. */
  profile: SummaryRow | null;
  toProfile: SummaryRow | null;
  reactions: ChatReaction[];
  /** The recipient has not accepted this sender yet (message request pending or declined). */
  held: boolean;
  /** The recipient follows the sender (images from followed members are never blurred). */
  recipientFollowsSender: boolean;
};

/** A member reading (null: a visitor), with what decides their avatars (`Viewer` in profile-summary.ts). */
export type ChatViewer = { memberId: string; memberNo: string; canSeeAvatars: boolean; safeMode: boolean; strangerMedia?: StrangerRule; lastReadId?: number } | null;

/** The card as the viewer may see it (§6 and the renditions: `avatarOf`). */
const summaryFor = (row: SummaryRow | null, viewer: ChatViewer): ProfileSummary | null => (row ? toProfileSummary(row, viewer) : null);

const IMAGE_TYPES = new Set(["img", "encodedImage"]);

/** The §3 message as `viewer` may see it: private ones in full only to sender and recipient (§6). */
export function viewMessage(stored: StoredMessage, viewer: ChatViewer): ChatMessage {
  const isSender = viewer?.memberId === stored.memberId;
  const isRecipient = viewer?.memberId != null && viewer.memberId === stored.toMemberId;
  const party = isSender || (isRecipient && !stored.held);
  const placeholder = stored.isPrivate && !party;
  const blurred =
    !placeholder && isRecipient && stored.isPrivate && !stored.imageAccepted && !stored.recipientFollowsSender && (IMAGE_TYPES.has(stored.payload?.type ?? "") || (stored.payload?.type === "encrypted" && Boolean(stored.payload.media)));
  const profile = summaryFor(stored.profile, viewer);
  return {
    idChatroomMessage: stored.idChatroomMessage,
    idMessage: stored.idChatroomMessage,
    requestId: isSender ? stored.requestId : "",
    chatroomId: stored.chatroomId,
    message: placeholder ? PRIVATE_PLACEHOLDER : stored.deleted ? "" : stored.message,
    payload: placeholder || stored.deleted ? null : stored.payload,
    replyPayload: placeholder ? [] : stored.reactions,
    isPrivate: stored.isPrivate,
    placeholder,
    blurred,
    toMemberNo: stored.toMemberNo,
    toProfile: summaryFor(stored.toProfile, viewer),
    profile,
    memberNo: stored.memberNo,
    nickname: stored.profile?.nickname ?? "",
    dateAdd: stored.dateAdd,
    dateUdp: stored.dateUdp,
    read: isRecipient ? stored.idChatroomMessage <= (viewer?.lastReadId ?? 0) : true,
    deleted: stored.deleted,
    blocked: stored.profile?.blocked ?? false,
    threadCount: stored.threadCount,
  };
}

export type StoredThread = {
  idChatMessageThread: number;
  idChatroomMessage: number;
  memberId: string;
  message: string;
  isPrivate: boolean;
  dateAdd: string;
  profile: SummaryRow | null;
  /** Author of the note the thread hangs under: a private reply is seen by it and the replier only. */
  noteAuthorId: string;
  /** An end-to-end encrypted private reply (README Decisions "Everything private is encrypted"). */
  payload?: EncryptedPayloadT | null;
};

export function viewThread(thread: StoredThread, viewer: ChatViewer): ChatThread {
  const party = viewer?.memberId === thread.memberId || viewer?.memberId === thread.noteAuthorId;
  const hidden = thread.isPrivate && !party;
  return {
    idChatMessageThread: thread.idChatMessageThread,
    message: hidden ? PRIVATE_PLACEHOLDER : thread.message,
    // Ciphertext too goes only to the two members: everyone else sees the placeholder (not even that it is encrypted).
    ...(thread.payload && !hidden ? { payload: thread.payload } : {}),
    isPrivate: thread.isPrivate,
    profile: summaryFor(thread.profile, viewer),
    dateAdd: thread.dateAdd,
  };
}
