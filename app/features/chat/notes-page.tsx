import { Switch } from "radix-ui";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ChatMessage, ChatThread } from "../../../worker/contract/chat";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { Avatar } from "../../components/avatar";
import { useToast } from "../../components/toast";
import { api } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { useRoom } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";
import { PostingReminder, usePostingStatus } from "../posting/posting-reminder";
import { MessageTime } from "./message-item";
import "./chat.css";

/** §2 Notes page: one note, its threaded replies and a reply box (private reply for non-authors with an avatar). */
export function NotesPage({ projectCode, note: initial }: { projectCode: string; note: ChatMessage & { threads?: ChatThread[] } }) {
  // §5/§6: a reply is a post; the reminder shows before sending (README Decisions "Posting rules").
  const posting = usePostingStatus("post");
  const { t } = useTranslation("chat");
  const toast = useToast();
  const [note, setNote] = useState(initial);
  const [text, setText] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  // Read after hydration so the server render (no local storage) and the first client render agree.
  const [session, setSession] = useState<ReturnType<typeof readSession>>(null);
  useEffect(() => setSession(readSession()), []);
  const own = session?.memberNo === note.memberNo;

  const reload = useCallback(async () => {
    const body = await api<ChatMessage & { threads?: ChatThread[] }>(`/private/sns/chatroom/messages/${note.idChatroomMessage}`);
    if ("info" in body) setNote(body.info);
  }, [note.idChatroomMessage]);

  useRoom({
    party: "chat-room",
    room: `${projectCode.toUpperCase()}~${note.chatroomId}`,
    enabled: Boolean(session) && !note.chatroomId.startsWith("dm-"),
    onEvent: (event: ServerEvent) => {
      if (event.type === "chat.thread" && event.idChatroomMessage === note.idChatroomMessage) {
        setNote((n) => (n.threads?.some((x) => x.idChatMessageThread === event.thread.idChatMessageThread) ? n : { ...n, threadCount: event.threadCount, threads: [...(n.threads ?? []), event.thread] }));
      }
    },
  });
  useEffect(() => setNote(initial), [initial]);

  async function reply(event: React.FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message || !session) return;
    const body = await api<ChatThread & { threadCount: number }>(`/private/sns/chatroom/messages/threads/${session.memberId}`, {
      body: { idChatroomMessage: note.idChatroomMessage, message, isPrivate },
    });
    if (!("info" in body)) return toast(errorText(t, body), "error");
    setText("");
    void reload();
  }

  function togglePrivate(next: boolean) {
    // §4/§6: the switch needs an avatar, and nobody private-replies to their own note.
    if (next && !session?.avator) return toast(t("privateNeedsAvatar"), "warning");
    setIsPrivate(next);
  }

  const name = note.profile?.nickname || note.nickname || note.memberNo;
  return (
    <article className="note card">
      <header className="row">
        {/* The shared avatar: safe mode and the visitor blur with its login dialog (§6). */}
        <Avatar profile={note.profile ?? { simpleCode: note.memberNo, nickname: note.nickname, avator: "" }} size={48} link />
        <h1 className="note-author">{name}</h1>
        <span className="muted">
          <MessageTime iso={note.dateAdd} />
        </span>
      </header>
      <p className="note-body">{note.placeholder ? <em>{t("privatePlaceholder")}</em> : note.message}</p>
      {note.payload && (note.payload.type === "img" || note.payload.type === "encodedImage") && <img className="chat-image" src={note.payload.src} alt={t("imageAlt", { name })} />}
      <h2>{t("threads", { count: note.threadCount })}</h2>
      <ol className="note-threads" aria-label={t("replies")}>
        {(note.threads ?? []).map((thread) => (
          <li key={thread.idChatMessageThread} className="chat-message">
            <div className="chat-message-head">
              <span className="chat-name">{thread.profile?.nickname || thread.profile?.simpleCode}</span>
              {thread.isPrivate && <span className="chat-private-tag">{t("private")}</span>}
              <span className="muted chat-time">
                <MessageTime iso={thread.dateAdd} />
              </span>
            </div>
            <p className="chat-body">{thread.message === "private message" && thread.isPrivate ? <em className="muted">{t("privatePlaceholder")}</em> : thread.message}</p>
          </li>
        ))}
      </ol>
      {session ? (
        <form className="form" onSubmit={reply}>
          <PostingReminder projectCode={projectCode} posting={posting} />
          <label className="field">
            <span>{t("replyLabel")}</span>
            <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={2000} />
          </label>
          <div className="row">
            {!own && (
              <label className="chat-switch">
                <Switch.Root className="switch" checked={isPrivate} onCheckedChange={togglePrivate} aria-label={t("privateReply")}>
                  <Switch.Thumb className="switch-thumb" />
                </Switch.Root>
                <span aria-hidden="true">{t("privateReply")}</span>
              </label>
            )}
            <button type="submit" className="button button-primary" disabled={!text.trim() || posting.refused}>
              {t("reply")}
            </button>
          </div>
        </form>
      ) : (
        <p>
          <Link to={`/${projectCode}/login`}>{t("loginToReply")}</Link>
        </p>
      )}
    </article>
  );
}
