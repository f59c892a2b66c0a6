import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";
import type { ChatMessage } from "../../../worker/contract/chat";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { LoginPrompt } from "../../components/avatar";
import * as chat from "../../api/chat-api";
import { useRoom } from "../../lib/realtime";
import { useSignedIn } from "../shell/viewer";
import { Icon } from "../../components/icon";

/** §2 Home: the latest public chat message, live, linking to the public chat. A visitor is offered the login instead. */
export function LatestChatBar({ projectCode }: { projectCode: string }) {
  const signedIn = useSignedIn();
  return signedIn ? <MemberLatestChatBar projectCode={projectCode} /> : <VisitorChatBar projectCode={projectCode} />;
}

/** §6: the public chat is for members; a visitor's bar makes no private call and opens the login dialog. */
function VisitorChatBar({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("shell");
  const [loginOpen, setLoginOpen] = useState(false);
  return (
    <>
      <button type="button" className="latest-chat-bar" onClick={() => setLoginOpen(true)}>
        <Icon name="chat" />
        <span className="muted">{t("visitor.publicChat")}</span>
      </button>
      {loginOpen && <LoginPrompt projectCode={projectCode} forMembers onClose={() => setLoginOpen(false)} />}
    </>
  );
}

function MemberLatestChatBar({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("chat");
  const [latest, setLatest] = useState<ChatMessage | null>(null);
  // Only a member gets a socket ticket: a visitor's page (the feed) never tries a socket that must fail.
  const [member, setMember] = useState(false);
  useEffect(() => {
    void chat.lastMessage(PUBLIC_CHATROOM_ID).then((body) => {
      if (!("info" in body)) return;
      setMember(true);
      setLatest(body.info);
    });
  }, []);
  useRoom({
    enabled: member,
    party: "chat-room",
    room: `${projectCode.toUpperCase()}~${PUBLIC_CHATROOM_ID}`,
    // Home is often left at once: connect only when the member stays.
    delayMs: 1200,
    onEvent: (event: ServerEvent) => {
      if (event.type === "chat.message") setLatest(event.message);
    },
  });
  const name = latest?.profile?.nickname || latest?.nickname || latest?.memberNo;
  return (
    <Link to={`/${projectCode}/public-chat/${PUBLIC_CHATROOM_ID}`} className="latest-chat-bar">
      <Icon name="chat" />
      {/* The name starts with what the link does and contains what it shows (WCAG 2.5.3, label in name). */}
      <span className="visually-hidden">{t("openPublicChat")}: </span>
      {latest ? (
        <span className="latest-chat-text">
          <strong>{name}</strong>: {latest.placeholder ? t("privatePlaceholder") : latest.mutedWord ? t("muted:hidden") : latest.message || t("image")}
        </span>
      ) : (
        <span className="muted">{t("noMessages")}</span>
      )}
    </Link>
  );
}
