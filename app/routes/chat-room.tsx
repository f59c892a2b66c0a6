import { useTranslation } from "react-i18next";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/chat-room";
import { DIRECT_CHATROOM, PERSONAL_CHATROOM, directChatroomId } from "../../worker/contract/chat.constants";
import type { MessagePermission } from "../../worker/contract/chat";
import { ChatConversation } from "../features/chat/chat-conversation";
import { DirectConversation } from "../features/chat/notification-page";
import { callApi, requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:messages") }];

type Ctx = Pick<Route.LoaderArgs, "request" | "context">;

/** The other member's name for the title: nickname, else their member number (also when they are not to be found). */
async function peerName(ctx: Ctx, chatroomId: string, myNo: string) {
  const [, a, b] = chatroomId.match(DIRECT_CHATROOM) ?? [];
  const peer = a === myNo ? b : a;
  if (!peer) return "";
  const body = await callApi<MessagePermission>(ctx.context, ctx.request, `/sns/message-permission/${peer}`, { private: true }).catch(() => null);
  return (body && "info" in body && body.info.nickname) || peer;
}

async function myNumber(ctx: Ctx, memberId: string | undefined) {
  const me = await callApi<{ simpleCode: string }>(ctx.context, ctx.request, `/core/profiles/${memberId}`, { private: true });
  return "info" in me ? me.info.simpleCode : "";
}

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
    const myNo = await myNumber({ request, context }, session["X-Member-ID"]);
    return { kind: "direct" as const, chatroomId: body.info.chatroomId, name: await peerName({ request, context }, body.info.chatroomId, myNo) };
  }
  if (!p.fromMemberNo || !p.toMemberNo || !/^\d{1,12}$/.test(p.fromMemberNo) || !/^\d{1,12}$/.test(p.toMemberNo) || p.fromMemberNo === p.toMemberNo) {
    throw new Response("Not found", { status: 404 });
  }
  // Only the pair's members open their room; the URL may name them in either order.
  const myNo = await myNumber({ request, context }, session["X-Member-ID"]);
  if (myNo !== p.fromMemberNo && myNo !== p.toMemberNo) throw redirect(`/${params.projectCode}/chatroom/${myNo}/${p.fromMemberNo === myNo ? p.toMemberNo : p.fromMemberNo}`);
  const chatroomId = directChatroomId(p.fromMemberNo, p.toMemberNo);
  return { kind: "direct" as const, chatroomId, name: await peerName({ request, context }, chatroomId, myNo) };
}

export default function ChatRoomRoute({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("chat");
  const projectCode = params.projectCode.toLowerCase();
  const navigate = useNavigate();
  // The back bar: a conversation returns to the chat list; a personal chatroom to wherever it was opened from.
  const back = (
    <button type="button" className="button" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(`/${projectCode}/profiles`))}>
      ← {t("common:back")}
    </button>
  );
  return (
    <main className="page page-wide chat-room-page">
      {loaderData.kind === "personal" ? (
        <>
          <div className="chat-room-backbar">
            {back}
            <h1>{t("personalTitle")}</h1>
          </div>
          <ChatConversation projectCode={projectCode} chatroomId={loaderData.chatroomId} title={t("personalTitle")} />
        </>
      ) : (
        <>
          <div className="chat-room-backbar">
            <Link className="button" to={`/${projectCode}/notification`}>
              ← {t("backToChats")}
            </Link>
            <h1>{loaderData.name || t("directTitle")}</h1>
          </div>
          <DirectConversation projectCode={projectCode} chatroomId={loaderData.chatroomId} peerName={loaderData.name} />
        </>
      )}
    </main>
  );
}
