import { useTranslation } from "react-i18next";
import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/chat-public";
import { PUBLIC_CHATROOM_ID, HOME_CHATROOM_ID, MESSAGE_LOAD_SIZE } from "../../worker/contract/chat.constants";
import type { ChatMessage } from "../../worker/contract/chat";
import { PublicChat } from "../features/chat/public-chat";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:publicTitle") }];

/**
 * §2 public-chat/{chatroomId}: the fixed public room (or the home room); anything else is 404.
 * The first page of messages is read here (one in-process call), so the newest are in the first paint rather than
 * after the page's scripts and a second request; if the call fails the browser loads them itself.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSessionCookie(request);
  if (params.chatroomId !== PUBLIC_CHATROOM_ID && params.chatroomId !== HOME_CHATROOM_ID) throw new Response("Not found", { status: 404 });
  const body = await callApi<ChatMessage[]>(context, request, `/sns/chatroom/${params.chatroomId}/messages?pageSize=${MESSAGE_LOAD_SIZE}`, { private: true });
  return { chatroomId: params.chatroomId, messages: "info" in body ? body.info : null };
}

// The conversation keeps itself current over its socket: the page data is read again only for another room.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) =>
  currentParams.chatroomId !== nextParams.chatroomId && defaultShouldRevalidate;

export default function PublicChatRoute({ loaderData, params }: Route.ComponentProps) {
  useTranslation("chat");
  return (
    <main className="page page-wide">
      <PublicChat projectCode={params.projectCode.toLowerCase()} chatroomId={loaderData.chatroomId} initialMessages={loaderData.messages} />
    </main>
  );
}
