import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ChatMessage } from "../../../worker/contract/chat";
import * as chat from "../../api/chat-api";
import { MEMBER_HIDDEN_EVENT } from "../social/social-client";
import { MessageTime } from "./message-time";

/** A member's recent public chatroom messages, shown on profiles (each opens its note). */
export function MemberChatMessages({ projectCode, memberNo }: { projectCode: string; memberNo: string }) {
  const { t } = useTranslation("chat");
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [reads, setReads] = useState(0);
  // After the member reports this member the server leaves their messages out for them: read again at once.
  useEffect(() => {
    const onHidden = (event: Event) => (event as CustomEvent<string>).detail === memberNo && setReads((n) => n + 1);
    window.addEventListener(MEMBER_HIDDEN_EVENT, onHidden);
    return () => window.removeEventListener(MEMBER_HIDDEN_EVENT, onHidden);
  }, [memberNo]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` counts the events that ask for a fresh read
  useEffect(() => {
    void chat.memberMessages(projectCode, memberNo).then((body) => setMessages("info" in body ? [...body.info].reverse() : []));
  }, [projectCode, memberNo, reads]);
  if (messages === null) return null;
  return (
    <section className="member-chat-messages" aria-label={t("memberMessages")}>
      <h2>{t("memberMessages")}</h2>
      {messages.length === 0 ? (
        <p className="muted">{t("noMessages")}</p>
      ) : (
        <ul>
          {messages.map((m) => (
            <li key={m.idChatroomMessage}>
              <Link to={`/${projectCode}/notes/${m.idChatroomMessage}`}>{m.placeholder ? t("privatePlaceholder") : m.mutedWord ? t("muted:hidden") : m.message || t("image")}</Link>{" "}
              <span className="muted">
                <MessageTime iso={m.dateAdd} /> · {t("threads", { count: m.threadCount })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
