/** A member's recent public chatroom messages, shown on profiles (owned by the chat feature, issue 5). */
export function MemberChatMessages(_props: { projectCode: string; memberNo: string }) {
  return null;
}
