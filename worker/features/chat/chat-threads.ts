// Thread replies under a message (§7 POST threads; §6 private replies; §9 the reply coin).
import { eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { namedBatch } from "../../db/named-batch";
import { chatMessages, chatThreads } from "../../db/schema";
import type { EncryptedPayloadT } from "../../contract/chat";
import { AppError } from "../../lib/app-error";
import { coinAwardStatements } from "../coins/coin-awards";
import { summaryRows } from "../members/profile-summary";
import { assertCanPost } from "../members/posting-rules";
import { viewerContext, type ChatMember } from "./chat-access";
import { viewMessage, viewThread } from "./chat-view";
import { hiddenFromSender, loadStored, storedThread } from "./chat-messages";

/**
 * §7 POST threads. A member cannot private-reply to their own note (§6); a private reply needs an avatar.
 * §9: the note's author gets 1 M coin when their post receives replies, once per post however many reply (the
 * ledger's unique source key is the post), in the same batch as the reply; their master also gets 1.
 */
export async function addThread(env: Env, member: ChatMember, input: { idChatroomMessage: number; message: string; isPrivate: boolean; payload?: EncryptedPayloadT }) {
  const parent = await loadStored(env, member.projectCode, input.idChatroomMessage, member);
  const viewer = await viewerContext(env, member);
  if (viewMessage(parent, viewer).placeholder) throw new AppError("notFound");
  // An encrypted reply (README Decisions "Everything private is encrypted") is private and carries no readable text.
  if (input.payload && !input.isPrivate) throw new AppError("chatPrivateNeedsRecipient");
  const text = input.payload ? "" : input.message.trim();
  if (!text && !input.payload) throw new AppError("chatEmptyMessage");
  await assertCanPost(env, member, "post", { isPrivate: input.isPrivate });
  if (input.isPrivate && parent.memberId === member.memberId) throw new AppError("chatNoPrivateReplyToOwnNote");
  const db = getDb(env);
  const at = Date.now();
  // The coin award's writes ride along; only the reply and the new count are read back.
  const award = parent.memberId !== member.memberId
    ? coinAwardStatements(db, { projectCode: member.projectCode, memberId: parent.memberId, reason: "replyReceived", sourceKey: `${parent.idChatroomMessage}` })
    : [];
  const written = await namedBatch(
    db,
    {
      threads: db
        .insert(chatThreads)
        .values({
          projectCode: member.projectCode,
          idChatroomMessage: parent.idChatroomMessage,
          memberId: member.memberId,
          message: text,
          isPrivate: input.isPrivate,
          dateAdd: at,
          payload: input.payload ? JSON.stringify(input.payload) : null,
        })
        .returning(),
      counts: db
        .update(chatMessages)
        .set({ threadCount: sql`${chatMessages.threadCount} + 1` })
        .where(eq(chatMessages.idChatroomMessage, parent.idChatroomMessage))
        .returning({ threadCount: chatMessages.threadCount }),
    },
    award,
  );
  const thread = written.threads[0]!;
  const threadCount = written.counts[0]?.threadCount ?? parent.threadCount + 1;
  const card = (await summaryRows(env, member.projectCode, [member.memberId])).get(member.memberId);
  const stored = storedThread(thread, card ?? null, parent.memberId);
  return { stored, parent, threadCount, view: viewThread(stored, viewer), hiddenFrom: await hiddenFromSender(env, member.memberId) };
}
