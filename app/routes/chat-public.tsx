import { useTranslation } from "react-i18next";
import type { Route } from "./+types/chat-public";
import { PUBLIC_CHATROOM_ID, HOME_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { PublicChat } from "../features/chat/public-chat";
import { requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:publicTitle") }];

/** §2 public-chat/{chatroomId}: the fixed public room (or the home room); anything else is 404. */
export function loader({ request, params }: Route.LoaderArgs) {
  requireSessionCookie(request);
  if (params.chatroomId !== PUBLIC_CHATROOM_ID && params.chatroomId !== HOME_CHATROOM_ID) throw new Response("Not found", { status: 404 });
  return { chatroomId: params.chatroomId };
}

export default function PublicChatRoute({ loaderData, params }: Route.ComponentProps) {
  useTranslation("chat");
  return (
    <main className="page page-wide">
      <PublicChat projectCode={params.projectCode.toLowerCase()} chatroomId={loaderData.chatroomId} />
    </main>
  );
}
