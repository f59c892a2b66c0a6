import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { z } from "zod";
import {
  ChatroomId,
  ConnectionBody,
  ContactSettingsBody,
  DeleteQuery,
  EditMessageBody,
  MarkReadBody,
  MemberNoField,
  MessagesQuery,
  PostMessageBody,
  ReactBody,
  ReminderBody,
  RequestDecisionBody,
  PushRemoveBody,
  SourceBody,
  SourceCountQuery,
  ThreadBody,
  type MessageReacted,
  type ThreadPosted,
} from "../../contract/chat";
import { IdParam, pageSize } from "../../contract/common";
import { ok } from "../../contract/envelope";
import type { PushSourceUpdated, VapidKey } from "../../contract/notifications";
import { getDb } from "../../db/client";
import { chatMessages } from "../../db/schema";
import { okJsonText } from "../../http/envelope";
import { closedTo } from "../members/profile-access";
import { AppError } from "../../lib/app-error";
import { limitPerMember, rateLimit } from "../../http/rate-limit";
import { parseProjectCode, requireSelf, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { roomName } from "../../lib/room-names";
import { roomKind, viewerContext } from "./chat-access";
import { acceptImage, deleteMessage, editMessage, messageDetail, reactToMessage, type Fanout } from "./chat-messages";
import { sendMessage } from "./chat-send";
import { addThread } from "./chat-threads";
import { chatList, markRead, unreadCounts } from "./chat-inbox";
import { decideRequest, listRequests } from "./message-requests";
import { createConnection, deleteConnection, getConnection, listConnections } from "./chat-connections";
import { contactSettings, publicKeyOf, saveContactSettings } from "./contact-settings";
import { createReminder, todaysReminders } from "./chat-reminders";
import { pushCount, updatePushSource } from "./push-sources";
import { viewMessage } from "./chat-view";
import { registerPushSubscription, removePushSubscription } from "../notifications/web-push";
import { lastMessage, listMessages, listMessagesJson } from "./chat-page";
import { publishDeleted, publishMessage, publishReaction, publishThread, refreshInbox } from "./chat-publish";
import { messagePermission } from "./conversation-starts";
import { listPresence, refreshPresence } from "./presence.service";
import { blurRoomImages, revealRoomImage } from "./room-image-blur";

const RoomParam = z.object({ id: ChatroomId });
const ProjectQuery = z.object({ project: z.string() });
const PublicMessagesQuery = MessagesQuery.extend({ project: z.string() });
const PresenceQuery = z.object({ pageSize: pageSize(30, 100) });
const ListQuery = z.object({ pageSize: pageSize(100, 500) });
const CountQuery = z.object({ chatroomId: ChatroomId });

/** Path ids and member numbers: anything malformed is a 400, never a 500. */
function parsed<T>(schema: z.ZodType<T>, raw: string | undefined): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw new AppError("badRequest", { issues: result.error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })) });
  return result.data;
}

/**
 * A closed profile's messages are not gathered on its profile for those it is closed to (profile-access.ts; the shared
 * room itself still shows them in place). An unknown or blocked number is left to the page's own rules.
 */
async function closedAuthor(env: Env, projectCode: string, memberNo: string | undefined, viewerId: string | null) {
  if (!memberNo) return false;
  return closedTo(env, projectCode, memberNo, viewerId).catch((error) => {
    if (error instanceof AppError) return false;
    throw error;
  });
}

/**
 * §7 Chat, readable without a session for the shared rooms and notes (§6: visitors may view notes).
 * The tenant comes from `?project=`; private messages are placeholders for a visitor.
 */
const ShowMutedQuery = z.object({ showMuted: z.enum(["true", "false"]).optional() });

export const chatPublic = new Hono<AppEnv>()
  .get("/sns/chatroom/messages/:id", validate("query", ProjectQuery), async (c) => {
    const project = parseProjectCode(c.req.valid("query").project);
    return c.json(ok(await messageDetail(c.env, project, parsed(IdParam, c.req.param("id")), null)));
  })
  .get("/sns/chatroom/:id/messages", validate("param", RoomParam), validate("query", PublicMessagesQuery), async (c) => {
    const { project, ...query } = c.req.valid("query");
    const projectCode = parseProjectCode(project);
    if (await closedAuthor(c.env, projectCode, query.memberNo, null)) return c.json(ok([]));
    return okJsonText(c, await listMessagesJson(c.env, projectCode, c.req.valid("param").id, null, query));
  })
  .get("/sns/chatroom/:id/last-message", validate("param", RoomParam), validate("query", ProjectQuery), async (c) => {
    const project = parseProjectCode(c.req.valid("query").project);
    return c.json(ok(await lastMessage(c.env, project, c.req.valid("param").id, null)));
  });

export const chatPrivate = new Hono<AppEnv>()
  // ── messages (literal paths before `/sns/chatroom/:id/...`)
  .get("/sns/chatroom/unread-counts", async (c) => c.json(ok(await unreadCounts(c.env, c.get("member")))))
  .get("/sns/chatroom/list", validate("query", ListQuery), async (c) => c.json(ok(await chatList(c.env, c.get("member"), c.req.valid("query").pageSize))))
  // `showMuted=true`: "Show anyway" for a message or note hidden by one of the caller's muted words (README Decisions "Muted words").
  .get("/sns/chatroom/messages/:id", validate("query", ShowMutedQuery), async (c) => {
    const member = c.get("member");
    const detail = await messageDetail(c.env, member.projectCode, parsed(IdParam, c.req.param("id")), member, c.req.valid("query").showMuted === "true");
    // A note's image under the reader's stranger-media setting is its rendition here too (room-image-blur.ts).
    const [shown] = await blurRoomImages(c.env, [detail], member);
    return c.json(ok(shown));
  })
  // The per-item reveal of one blurred room image (README Decisions "Stranger media stays blurred").
  .post("/sns/chatroom/messages/:id/reveal-image", async (c) => {
    return c.json(ok(await revealRoomImage(c.env, c.get("member"), parsed(IdParam, c.req.param("id")))));
  })
  .post("/sns/chatroom/messages/threads/:memberId", validate("json", ThreadBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await rateLimit(c.env.RL_WRITE, `chat:${member.memberId}`);
    const result = await addThread(c.env, member, c.req.valid("json"));
    c.executionCtx.waitUntil(publishThread(c.env, member.projectCode, result.parent, result.stored, result.threadCount, result.hiddenFrom));
    return c.json(ok({ ...result.view, idChatroomMessage: result.parent.idChatroomMessage, threadCount: result.threadCount } satisfies ThreadPosted));
  })
  .put("/sns/chatroom/messages/:memberId/:id/react", limitPerMember("RL_WRITE", "react"), validate("json", ReactBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const id = parsed(IdParam, c.req.param("id"));
    const result = await reactToMessage(c.env, member, id, c.req.valid("json").replyPayload.reactEmoji);
    c.executionCtx.waitUntil(publishReaction(c.env, member.projectCode, result.stored));
    return c.json(ok({ idChatroomMessage: id, replyPayload: result.replyPayload } satisfies MessageReacted));
  })
  .put("/sns/chatroom/messages/:memberId/:id/accept-image", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await acceptImage(c.env, member, parsed(IdParam, c.req.param("id")))));
  })
  .put("/sns/chatroom/messages/:memberId/:id", limitPerMember("RL_WRITE", "edit"), validate("json", EditMessageBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const id = parsed(IdParam, c.req.param("id"));
    const result = await editMessage(c.env, member, id, c.req.valid("json").message);
    if ("deleted" in result && result.deleted) {
      const stored = await loadForPublish(c.env, member.projectCode, id);
      if (stored) c.executionCtx.waitUntil(publishDeleted(c.env, member.projectCode, stored));
      return c.json(ok({ idChatroomMessage: id, deleted: true }));
    }
    const edited = (result as { edited: Fanout }).edited;
    c.executionCtx.waitUntil(publishMessage(c.env, member.projectCode, edited, "edited"));
    return c.json(ok(viewMessage(edited.stored, await viewerContext(c.env, member))));
  })
  .delete("/sns/chatroom/messages/:memberId/:id", limitPerMember("RL_WRITE", "delete"), validate("query", DeleteQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const id = parsed(IdParam, c.req.param("id"));
    const all = ["true", "1", ""].includes(c.req.valid("query").all ?? "false");
    await deleteMessage(c.env, member, id, all);
    const stored = await loadForPublish(c.env, member.projectCode, id);
    if (stored) c.executionCtx.waitUntil(publishDeleted(c.env, member.projectCode, stored));
    return c.json(ok({ idChatroomMessage: id, deleted: true, all }));
  })
  .get("/sns/chatroom/:id/messages", validate("param", RoomParam), validate("query", MessagesQuery), async (c) => {
    const member = c.get("member");
    if (await closedAuthor(c.env, member.projectCode, c.req.valid("query").memberNo, member.memberId)) return c.json(ok([]));
    return okJsonText(c, await listMessagesJson(c.env, member.projectCode, c.req.valid("param").id, member, c.req.valid("query")));
  })
  .get("/sns/chatroom/:id/message/set", validate("param", RoomParam), async (c) => {
    // §7 "message set": the modal's page (§9: 100) of a room.
    const member = c.get("member");
    const messages = await listMessages(c.env, member.projectCode, c.req.valid("param").id, member, { pageSize: 100 });
    return c.json(ok({ chatroomId: c.req.valid("param").id, messages, count: messages.length }));
  })
  .get("/sns/chatroom/:id/last-message", validate("param", RoomParam), async (c) => {
    const member = c.get("member");
    return c.json(ok(await lastMessage(c.env, member.projectCode, c.req.valid("param").id, member)));
  })
  .put("/sns/chatroom/:id/read", limitPerMember("RL_WRITE", "read"), validate("param", RoomParam), validate("json", MarkReadBody), async (c) => {
    const member = c.get("member");
    const result = await markRead(c.env, member, c.req.valid("param").id, c.req.valid("json").idChatroomMessage);
    c.executionCtx.waitUntil(refreshInbox(c.env, member.projectCode, member.memberId, member.memberNo));
    return c.json(ok(result));
  })
  .post("/sns/chatrooms/:id/messages/:memberId", validate("param", RoomParam.extend({ memberId: z.string() })), validate("json", PostMessageBody), async (c) => {
    const member = requireSelf(c, c.req.valid("param").memberId);
    await rateLimit(c.env.RL_WRITE, `chat:${member.memberId}`);
    const result = await sendMessage(c.env, member, c.req.valid("param").id, c.req.valid("json"));
    if (result.fanout) c.executionCtx.waitUntil(publishMessage(c.env, member.projectCode, result.fanout));
    return c.json(ok(result.message));
  })
  .get("/sns/chatroom-member/count", validate("query", CountQuery), async (c) => {
    const member = c.get("member");
    const { chatroomId } = c.req.valid("query");
    roomKind(chatroomId);
    if (/^dm-/.test(chatroomId) && !chatroomId.split("-").includes(member.memberNo)) return c.json(ok({ chatroomId, count: 0 }));
    const room = await getServerByName(c.env.ChatRoom, roomName(member.projectCode, chatroomId));
    return c.json(ok({ chatroomId, count: await room.memberCount() }));
  })

  // ── connections (§3 Connection)
  .get("/sns/connections", async (c) => c.json(ok(await listConnections(c.env, c.get("member")))))
  .get("/sns/connections/:idConnection", async (c) => c.json(ok(await getConnection(c.env, c.get("member"), parsed(IdParam, c.req.param("idConnection"))))))
  .post("/sns/connections", validate("json", ConnectionBody), async (c) => c.json(ok(await createConnection(c.env, c.get("member"), c.req.valid("json").memberNo))))
  .delete("/sns/connections/:idConnection", async (c) => c.json(ok(await deleteConnection(c.env, c.get("member"), parsed(IdParam, c.req.param("idConnection"))))))

  // ── member control over contact: requests tray, settings, stranger images
  .get("/sns/message-requests", async (c) => c.json(ok(await listRequests(c.env, c.get("member")))))
  .put("/sns/message-requests/:idRequest", validate("json", RequestDecisionBody), async (c) => {
    const member = c.get("member");
    const result = await decideRequest(c.env, member, parsed(IdParam, c.req.param("idRequest")), c.req.valid("json").decision);
    c.executionCtx.waitUntil(refreshInbox(c.env, member.projectCode, member.memberId, member.memberNo));
    return c.json(ok(result));
  })
  .get("/sns/message-permission/:memberNo", async (c) => c.json(ok(await messagePermission(c.env, c.get("member"), parsed(MemberNoField, c.req.param("memberNo"))))))
  .get("/sns/chat-settings", async (c) => c.json(ok(await contactSettings(c.env, c.get("member").memberId))))
  .put("/sns/chat-settings", validate("json", ContactSettingsBody), async (c) => {
    const member = c.get("member");
    const settings = await saveContactSettings(c.env, member, c.req.valid("json"));
    c.executionCtx.waitUntil(refreshPresence(c.env, member.projectCode, [member.memberId]));
    return c.json(ok(settings));
  })
  .get("/sns/public-keys/:memberNo", async (c) => c.json(ok(await publicKeyOf(c.env, c.get("member"), parsed(MemberNoField, c.req.param("memberNo"))))))

  // ── presence: recently active members the caller may see (public-chat side list, latest online)
  .get("/sns/presence/:project", validate("query", PresenceQuery), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    return c.json(ok(await listPresence(c.env, project, c.get("member").memberId, c.req.valid("query").pageSize)));
  })

  // ── web push (§7 notifications source update {sourceKey} and count for WEB_PUSH)
  // With `subscription` the source update also registers this device for web push (README "Push that reaches a
  // closed app"); the DELETE removes one of the caller's own devices; the key is what the browser subscribes with.
  .put("/sns/notifications/source/:memberId", validate("json", SourceBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const { sourceKey, subscription } = c.req.valid("json");
    const source = await updatePushSource(c.env, member, sourceKey);
    if (!subscription) return c.json(ok(source));
    return c.json(ok({ ...source, subscribed: await registerPushSubscription(c.env, member, subscription) } satisfies PushSourceUpdated));
  })
  .delete("/sns/notifications/source/:memberId", validate("json", PushRemoveBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    if (!(await removePushSubscription(c.env, member, c.req.valid("json").endpoint))) throw new AppError("notFound");
    return c.json(ok({ removed: true }));
  })
  .get("/sns/notifications/vapid-key", (c) => c.json(ok({ publicKey: c.env.VAPID_PUBLIC_KEY } satisfies VapidKey)))
  .get("/sns/notifications/count", validate("query", SourceCountQuery), async (c) => {
    return c.json(ok(await pushCount(c.env, c.get("member"), c.req.valid("query").sourceKey)));
  })

  // ── reminders (§3 Reminder; §9 only today's UTC date)
  .post("/core/reminders", validate("json", ReminderBody), async (c) => c.json(ok(await createReminder(c.env, c.get("member"), c.req.valid("json")))))
  .get("/core/reminders", async (c) => c.json(ok(await todaysReminders(c.env, c.get("member")))));

/** The row as stored (deleted included) for publishing a deletion to the right rooms. */
async function loadForPublish(env: Env, projectCode: string, id: number) {
  const row = await getDb(env)
    .select({ chatroomId: chatMessages.chatroomId, memberNo: chatMessages.memberNo, toMemberId: chatMessages.toMemberId, toMemberNo: chatMessages.toMemberNo })
    .from(chatMessages)
    .where(and(eq(chatMessages.idChatroomMessage, id), eq(chatMessages.projectCode, projectCode)))
    .get();
  if (!row) return null;
  return { ...row, idChatroomMessage: id } as unknown as Fanout["stored"];
}
