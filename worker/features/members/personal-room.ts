// A member's personal chatroom (§2): named by the member code, created at sign-up. Here, below chat and session, so
// sign-up (session) and chat name it the same way without one importing the other.
import { md5 } from "js-md5";

/** §2: a member's personal chatroom is the md5 of their member code. */
export const personalChatroomId = (memberNo: string) => md5(memberNo);

/** The mapping row written at sign-up (session.service) for a new member. */
export const personalRoomRow = (projectCode: string, memberId: string, memberNo: string) => ({
  projectCode,
  chatroomId: personalChatroomId(memberNo),
  memberId,
});
