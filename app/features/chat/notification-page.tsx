import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import type { ChatListEntry, MessageRequest } from "../../../worker/contract/chat";
import { DIRECT_CHATROOM, PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { Avatar } from "../../components/avatar";
import { TimeAgo } from "../../i18n/use-format";
import * as chat from "../../api/chat-api";
import { useRoom } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";
import { enablePush } from "../notifications/web-push";
import { ChatConversation } from "./chat-conversation";
import { FollowRequests } from "../social/follow-requests";
import { RequestsTray } from "./requests-tray";

const SEEN_POPUP_KEY = "hasSeenNotificationPopup";
/** Set when this page load is the one that asks; the prompt then stays until answered while the member moves around. */
let askingThisLoad = false;

/**
 * The one-time prompt about browser notifications (`hasSeenNotificationPopup`): remembered as soon as the member
 * has seen it, so it appears on one visit only, answered or not. A card above the chat list, not a modal: it takes
 * no focus, and on a phone showing a conversation it stays out of the way (it waits for the chat list).
 */
function NotificationPopup({ chatId }: { chatId: string | null }) {
  const { t } = useTranslation("chat");
  const ref = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if ("Notification" in window && (askingThisLoad || localStorage.getItem(SEEN_POPUP_KEY) !== "true")) setOpen(true);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new conversation lays the page out anew, so visibility is checked again
  useEffect(() => {
    // Shown, not hidden by the phone layout: from now on it is remembered.
    if (!open || !ref.current || ref.current.getClientRects().length === 0) return;
    localStorage.setItem(SEEN_POPUP_KEY, "true");
    askingThisLoad = true;
  }, [open, chatId]);
  const done = (enable: boolean) => {
    askingThisLoad = false;
    setOpen(false);
    if (!enable) return localStorage.setItem("enableNotification", "false");
    // Asks for permission (a denial is only logged, §145) and subscribes this device for web push.
    void enablePush();
  };
  if (!open) return null;
  return (
    <section ref={ref} className="notify-prompt" aria-label={t("popupTitle")}>
      <p className="notify-prompt-text">
        <strong>{t("popupTitle")}</strong> <span className="muted">{t("popupBody")}</span>
      </p>
      <div className="notify-prompt-actions">
        <button type="button" className="button" onClick={() => done(false)}>
          {t("popupLater")}
        </button>
        <button type="button" className="button button-primary" onClick={() => done(true)}>
          {t("popupEnable")}
        </button>
      </div>
    </section>
  );
}

/** One-to-one conversation with the read marker kept current while it is open. */
export function DirectConversation({ projectCode, chatroomId, peerName }: { projectCode: string; chatroomId: string; peerName?: string }) {
  const { t } = useTranslation("chat");
  const me = readSession()?.memberNo ?? "";
  const [, a, b] = chatroomId.match(DIRECT_CHATROOM) ?? [];
  const peer = a === me ? b : a;
  const markRead = useCallback(() => {
    void chat.markRoomRead(chatroomId);
  }, [chatroomId]);
  return (
    <ChatConversation
      projectCode={projectCode}
      chatroomId={chatroomId}
      title={t("conversationWith", { name: peerName || peer || "" })}
      peerMemberNo={peer}
      onMessages={markRead}
    />
  );
}

/** §2 Notification page: chat list left, conversation right; one at a time on small screens with a back bar. */
export function NotificationPage({ projectCode, chatId }: { projectCode: string; chatId: string | null }) {
  const { t } = useTranslation("chat");
  const navigate = useNavigate();
  const [entries, setEntries] = useState<ChatListEntry[]>([]);
  const [requests, setRequests] = useState<MessageRequest[]>([]);
  const [loaded, setLoaded] = useState(false);
  const load = useCallback(async () => {
    const [list, tray] = await Promise.all([chat.chatList(), chat.messageRequests()]);
    if ("info" in list) setEntries(list.info);
    if ("info" in tray) setRequests(tray.info);
    setLoaded(true);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: opening another conversation refreshes the list beside it
  useEffect(() => void load(), [load, chatId]);
  const session = readSession();
  useRoom({
    party: "member-inbox",
    room: `${projectCode.toUpperCase()}~${session?.memberId ?? ""}`,
    enabled: Boolean(session),
    onEvent: (event: ServerEvent) => {
      if (event.type === "inbox.counts" || event.type === "notification") void load();
    },
  });
  const active = entries.find((e) => e.chatroomId === chatId);
  return (
    <div className={`notification-page${chatId ? " has-chat" : ""}`}>
      <NotificationPopup chatId={chatId} />
      <div className="chat-index">
        <h1>{t("notificationTitle")}</h1>
        <RequestsTray requests={requests} onDecided={() => void load()} />
        <FollowRequests refresh={requests.length + entries.length} />
        <ul className="chat-index-list" aria-label={t("chatList")}>
          {entries.map((entry) => (
            <li key={entry.chatroomId}>
              <Link
                to={`/${projectCode}/notification/${entry.chatroomId}`}
                className={`chat-index-item${entry.unread > 0 ? " chat-index-unread" : ""}${entry.chatroomId === chatId ? " active" : ""}`}
                aria-current={entry.chatroomId === chatId ? "page" : undefined}
              >
                <Avatar profile={entry.profile} size={40} decorative />
                <span className="chat-index-text">
                  <strong>{entry.profile.nickname || entry.profile.simpleCode}</strong>
                  <span className="muted">
                    {entry.lastMessage ? (entry.lastMessage.mutedWord ? t("muted:hidden") : entry.lastMessage.payload?.type === "encrypted" ? `🔒 ${t("encrypted")}` : entry.lastMessage.message || t("image")) : t("noMessages")}
                  </span>
                  {entry.waiting && <span className="chat-waiting">{t("waiting")}</span>}
                </span>
                {entry.lastMessage && (
                  <span className="muted chat-index-time">
                    <TimeAgo value={entry.lastMessage.dateAdd} />
                  </span>
                )}
                {entry.unread > 0 && <span className="badge" role="img" aria-label={t("unreadCount", { count: entry.unread })}>{entry.unread}</span>}
              </Link>
            </li>
          ))}
          {!loaded && <li className="muted">{t("common:loading")}</li>}
        </ul>
        {/* Outside the list: the way to the public chat is not a conversation. */}
        {loaded && entries.length === 0 && (
          <div className="empty-state chat-empty">
            <span>{t("noChats")}</span>
            <span className="muted">{t("noChatsHint")}</span>
            <Link className="button button-primary" to={`/${projectCode}/public-chat/${PUBLIC_CHATROOM_ID}`}>
              {t("goPublicChat")}
            </Link>
          </div>
        )}
      </div>
      <div className="chat-pane">
        {chatId ? (
          <>
            <div className="chat-backbar">
              <button type="button" className="button" onClick={() => navigate(`/${projectCode}/notification`)}>
                ← {t("common:back")}
              </button>
              {/* On a phone the chat list (and its h1) is hidden: the conversation names itself. */}
              <h2 className="chat-backbar-title">{active?.profile.nickname || active?.profile.simpleCode || t("directTitle")}</h2>
            </div>
            <DirectConversation key={chatId} projectCode={projectCode} chatroomId={chatId} />
          </>
        ) : (
          <p className="empty-state chat-pane-empty">{t("pickChat")}</p>
        )}
      </div>
    </div>
  );
}
