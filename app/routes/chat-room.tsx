import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import type { Route } from "./+types/chat-room";
import { PERSONAL_CHATROOM, directChatroomId } from "../../worker/contract/chat.constants";
import { ChatConversation } from "../features/chat/chat-conversation";
import { DirectConversation } from "../features/chat/notification-page";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";
import "../features/chat/chat.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:messages") }];

/**
 * One-segment chatroom URLs (§2): `chatroom/{md5 of member code}` (32 hex: a personal chatroom) or
 * `chatroom/{connectionId}` (digits: the caller's connection), and the two-member forms
 * `chatroom/{from}/{to}` and `chatroom/{from}/{to}/{connectionId}` (one-to-one room of that pair).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireSessionCookie(request);
  const p = params as { roomKey?: string; fromMemberNo?: string; toMemberNo?: string; connectionId?: string };
  if (p.roomKey && PERSONAL_CHATROOM.test(p.roomKey)) return { kind: "personal" as const, chatroomId: p.roomKey };
  if (p.roomKey) {
    if (!/^\d{1,15}$/.test(p.roomKey)) throw new Response("Not found", { status: 404 });
    const body = await callApi<{ chatroomId: string }>(context, request, `/sns/connections/${p.roomKey}`, { private: true });
    if (!("info" in body)) throw new Response("Not found", { status: 404 });
    return { kind: "direct" as const, chatroomId: body.info.chatroomId };
  }
  if (!p.fromMemberNo || !p.toMemberNo || !/^\d{1,12}$/.test(p.fromMemberNo) || !/^\d{1,12}$/.test(p.toMemberNo) || p.fromMemberNo === p.toMemberNo) {
    throw new Response("Not found", { status: 404 });
  }
  // Only the pair's members open their room; the URL may name them in either order.
  const me = await callApi<{ simpleCode: string }>(context, request, `/core/profiles/${session["X-Member-ID"]}`, { private: true });
  const myNo = "info" in me ? me.info.simpleCode : "";
  if (myNo !== p.fromMemberNo && myNo !== p.toMemberNo) throw redirect(`/${params.projectCode}/chatroom/${myNo}/${p.fromMemberNo === myNo ? p.toMemberNo : p.fromMemberNo}`);
  return { kind: "direct" as const, chatroomId: directChatroomId(p.fromMemberNo, p.toMemberNo) };
}

export default function ChatRoomRoute({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("chat");
  const projectCode = params.projectCode.toLowerCase();
  return (
    <main className="page page-wide chat-room-page">
      {loaderData.kind === "personal" ? (
        <>
          <h1>{t("personalTitle")}</h1>
          <ChatConversation projectCode={projectCode} chatroomId={loaderData.chatroomId} title={t("personalTitle")} />
        </>
      ) : (
        <>
          <h1>{t("directTitle")}</h1>
          <DirectConversation projectCode={projectCode} chatroomId={loaderData.chatroomId} />
        </>
      )}
    </main>
  );
}
