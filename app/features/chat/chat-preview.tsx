import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";
import type { ChatMessage } from "../../../worker/contract/chat";
import { Avatar } from "../../components/avatar";
import { useNearViewport } from "../../lib/when-near";
import * as chat from "../../api/chat-api";
import { HOME_CHAT_PREVIEW_SIZE, uniqueByMember } from "./chat-preview-list";
import { Icon } from "../../components/icon";

/** Lines the preview's scroller shows before it is scrolled; the rest render when the member scrolls it. */
const FIRST_LINES = 8;

/**
 * §9 home chat preview: the last 100 public chat messages, one (the latest) per member, each leading to the chat.
 * Read when the block comes near the screen and rendered as a transition, the lines past the scroller's first
 * screen when it is scrolled (README Decisions "Lighter main pages"): up to 100 avatar rows rendered while home
 * hydrated were one blocking render on a slow phone. Until then the block keeps its place (no layout shift).
 */
export function ChatPreview({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("rules");
  const [ref, near] = useNearViewport();
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (!near) return;
    void chat.roomMessages(PUBLIC_CHATROOM_ID, HOME_CHAT_PREVIEW_SIZE).then((body) => {
      startTransition(() => setMessages("info" in body ? uniqueByMember(body.info) : []));
    });
  }, [near]);
  if (messages && messages.length === 0) return null;
  const href = `/${projectCode}/public-chat/${PUBLIC_CHATROOM_ID}`;
  const shown = messages && !all ? messages.slice(0, FIRST_LINES) : messages;
  return (
    <section ref={ref} className="home-section card chat-preview" aria-labelledby="chat-preview-title">
      <h2 id="chat-preview-title"><Icon name="chat" /> {t("chatPreview.title")}</h2>
      {shown ? (
        <ul className="chat-preview-list" onScroll={all ? undefined : () => startTransition(() => setAll(true))}>
          {shown.map((m) => {
            const name = m.profile?.nickname || m.nickname || m.memberNo;
            return (
              <li key={m.idChatroomMessage}>
                <Link to={href} className="chat-preview-item">
                  <Avatar profile={m.profile ?? { simpleCode: m.memberNo, nickname: name, avator: "" }} size={32} decorative />
                  <span className="chat-preview-text">
                    <strong>{name}</strong> {m.mutedWord ? t("muted:hidden") : m.message || t("chatPreview.image")}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted chat-preview-loading">{t("common:loading")}</p>
      )}
    </section>
  );
}
