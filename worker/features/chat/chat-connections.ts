// Connections (§3 Connection: memberNo): the members a member keeps at hand for one-to-one chat.
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatConnections } from "../../db/schema";
import { directChatroomId } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { profileSummaries } from "../members/profile-summary";
import { isBlockedBetween, notBlockedWith } from "../members/visibility";
import { memberByNo, viewerContext, type ChatMember } from "./chat-access";


export async function listConnections(env: Env, member: ChatMember) {
  const rows = await getDb(env)
    .select({ idConnection: chatConnections.idConnection, target: chatConnections.targetMemberId, createdAt: chatConnections.createdAt })
    .from(chatConnections)
    .where(and(eq(chatConnections.memberId, member.memberId), notBlockedWith(member.memberId, chatConnections.targetMemberId)))
    .orderBy(desc(chatConnections.idConnection))
    .limit(500);
  const summaries = await profileSummaries(env, member.projectCode, rows.map((r) => r.target), await viewerContext(env, member));
  return rows.flatMap((r) => {
    const profile = summaries.get(r.target);
    return profile
      ? [{ idConnection: r.idConnection, memberNo: profile.simpleCode, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode), dateAdd: iso(r.createdAt)! }]
      : [];
  });
}

export async function createConnection(env: Env, member: ChatMember, memberNo: string) {
  const target = await memberByNo(env, member.projectCode, memberNo);
  if (target.memberId === member.memberId) throw new AppError("chatNotToSelf");
  if (await isBlockedBetween(env, member.memberId, target.memberId)) throw new AppError("notFound");
  const db = getDb(env);
  await db
    .insert(chatConnections)
    .values({ projectCode: member.projectCode, memberId: member.memberId, targetMemberId: target.memberId, createdAt: Date.now() })
    .onConflictDoNothing();
  const row = (await db
    .select({ idConnection: chatConnections.idConnection })
    .from(chatConnections)
    .where(and(eq(chatConnections.memberId, member.memberId), eq(chatConnections.targetMemberId, target.memberId)))
    .get())!;
  return { idConnection: row.idConnection, memberNo, chatroomId: directChatroomId(member.memberNo, memberNo) };
}

export async function getConnection(env: Env, member: ChatMember, idConnection: number) {
  const row = await getDb(env)
    .select({ target: chatConnections.targetMemberId })
    .from(chatConnections)
    .where(and(eq(chatConnections.idConnection, idConnection), eq(chatConnections.memberId, member.memberId), eq(chatConnections.projectCode, member.projectCode)))
    .get();
  if (!row || (await isBlockedBetween(env, member.memberId, row.target))) throw new AppError("notFound");
  const [profile] = [...(await profileSummaries(env, member.projectCode, [row.target], await viewerContext(env, member))).values()];
  if (!profile) throw new AppError("notFound");
  return { idConnection, memberNo: profile.simpleCode, profile, chatroomId: directChatroomId(member.memberNo, profile.simpleCode) };
}

export async function deleteConnection(env: Env, member: ChatMember, idConnection: number) {
  const result = await getDb(env)
    .delete(chatConnections)
    .where(and(eq(chatConnections.idConnection, idConnection), eq(chatConnections.memberId, member.memberId)))
    .returning({ id: chatConnections.idConnection });
  if (!result.length) throw new AppError("notFound");
  return { idConnection, deleted: true };
}
