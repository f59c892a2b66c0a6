import { useTranslation } from "react-i18next";
import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/chat-public";
import { PUBLIC_CHATROOM_ID, HOME_CHATROOM_ID, MESSAGE_LOAD_SIZE } from "../../worker/contract/chat.constants";
import type { ChatMessage } from "../../worker/contract/chat";
import { FIRST_PAINT } from "../features/chat/chat-paging";
import { PublicChat } from "../features/chat/public-chat";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:publicTitle") }];

/**
 * §2 public-chat/{chatroomId}: the fixed public room (or the home room); anything else is 404.
 * The newest messages are read here (one in-process call), so they are in the first paint rather than after the
 * page's scripts and a second request; if the call fails the browser loads them itself. Only the newest ones the
 * first paint shows come with the page, the rest of the first page after hydration (README Decisions "Lighter main
 * pages"): all 200 made the HTML some 200 KB.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSessionCookie(request);
  if (params.chatroomId !== PUBLIC_CHATROOM_ID && params.chatroomId !== HOME_CHATROOM_ID) throw new Response("Not found", { status: 404 });
  const body = await callApi<ChatMessage[]>(context, request, `/sns/chatroom/${params.chatroomId}/messages?pageSize=${FIRST_PAINT}`, { private: true });
  const messages = "info" in body ? body.info : null;
  return { chatroomId: params.chatroomId, messages, partial: messages !== null && messages.length >= FIRST_PAINT && FIRST_PAINT < MESSAGE_LOAD_SIZE };
}

// The conversation keeps itself current over its socket: the page data is read again only for another room.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) =>
  currentParams.chatroomId !== nextParams.chatroomId && defaultShouldRevalidate;

export default function PublicChatRoute({ loaderData, params }: Route.ComponentProps) {
  useTranslation("chat");
  return (
    <main className="page page-wide">
      <PublicChat projectCode={params.projectCode.toLowerCase()} chatroomId={loaderData.chatroomId} initialMessages={loaderData.messages} initialPartial={loaderData.partial} />
    </main>
  );
}
