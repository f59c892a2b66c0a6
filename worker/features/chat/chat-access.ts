// Who asks and where: the chatroom kinds (§2, §9), who may reach a room, and the viewer a chat read is shown to (§6).
import { and, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import { DIRECT_CHATROOM, HOME_CHATROOM_ID, PERSONAL_CHATROOM, PUBLIC_CHATROOM_ID, directChatroomId } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { toViewer as toSummaryViewer, viewerRowQuery, type ViewerRow } from "../members/profile-summary";
import type { ChatViewer } from "./chat-view";

/** The caller of a chat action. */
export type ChatMember = { memberId: string; memberNo: string; projectCode: string; kycStatus: number; status?: string };

export type RoomKind =
  | { kind: "public" | "home" }
  | { kind: "personal" }
  | { kind: "direct"; memberNos: [string, string] };

/** Which kind of chatroom an id names (§2, §9). Unknown shapes are 404. */
export function roomKind(chatroomId: string): RoomKind {
  if (chatroomId === PUBLIC_CHATROOM_ID) return { kind: "public" };
  if (chatroomId === HOME_CHATROOM_ID) return { kind: "home" };
  if (PERSONAL_CHATROOM.test(chatroomId)) return { kind: "personal" };
  const direct = chatroomId.match(DIRECT_CHATROOM);
  if (direct && direct[1] !== direct[2] && directChatroomId(direct[1]!, direct[2]!) === chatroomId) return { kind: "direct", memberNos: [direct[1]!, direct[2]!] };
  throw new AppError("notFound");
}

/** §5: image sending in verification-required chats needs kycStatus above 0: the shared rooms. */
export const verificationRequired = (room: RoomKind) => room.kind === "public" || room.kind === "home";

/** A one-to-one room is only ever reachable by its two members; everyone else gets 404. */
export function assertRoomAccess(room: RoomKind, viewer: { memberNo: string } | null) {
  if (room.kind === "direct" && (!viewer || !room.memberNos.includes(viewer.memberNo))) throw new AppError("notFound");
}

/** The member's avatar rights and safe mode (§6; README Decisions on renditions), or null for a visitor. */
export async function viewerContext(env: Env, member: ChatMember | null): Promise<ChatViewer> {
  if (!member) return null;
  return toViewer(member, (await viewerRowQuery(env, member.memberId))[0]);
}

// The requests tray, connections and single messages share `avatarOf`'s viewer (with the stranger-media rule).
export function toViewer(member: ChatMember | null, row: ViewerRow | undefined): ChatViewer {
  if (!member) return null;
  return { ...toSummaryViewer(member.memberId, row)!, memberNo: member.memberNo };
}

/** A member of the tenant by member number, or 404. */
export async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env)
    .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode, kycStatus: profiles.kycStatus, multiGender: profiles.multiGender })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!row) throw new AppError("notFound");
  return row;
}
