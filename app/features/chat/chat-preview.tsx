import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";
import type { ChatMessage } from "../../../worker/contract/chat";
import { Avatar } from "../../components/avatar";
import * as chat from "../../api/chat-api";
import { HOME_CHAT_PREVIEW_SIZE, uniqueByMember } from "./chat-preview-list";
import "./chat.css";

/** §9 home chat preview: the last 100 public chat messages, one (the latest) per member, each leading to the chat. */
export function ChatPreview({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("rules");
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  useEffect(() => {
    void chat.roomMessages(PUBLIC_CHATROOM_ID, HOME_CHAT_PREVIEW_SIZE).then((body) => {
      setMessages("info" in body ? uniqueByMember(body.info) : []);
    });
  }, []);
  if (!messages || messages.length === 0) return null;
  const href = `/${projectCode}/public-chat/${PUBLIC_CHATROOM_ID}`;
  return (
    <section className="home-section card chat-preview" aria-labelledby="chat-preview-title">
      <h2 id="chat-preview-title">💬 {t("chatPreview.title")}</h2>
      <ul className="chat-preview-list">
        {messages.map((m) => {
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
    </section>
  );
}
