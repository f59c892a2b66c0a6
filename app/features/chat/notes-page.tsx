import { ReportItemButton } from "../social/report-item-dialog";
import { Switch } from "../../components/switch";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { HOME_CHATROOM_ID, PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";
import type { ChatMessage, ChatThread } from "../../../worker/contract/chat";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { Avatar } from "../../components/avatar";
import { ConfirmDialog } from "../../components/dialog";
import { useToast } from "../../components/toast";
import * as chat from "../../api/chat-api";
import { errorText } from "../../lib/error-text";
import { useRoom } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";
import { PostingReminder, usePostingStatus } from "../posting/posting-reminder";
import { MessageTime } from "./message-time";
import { ChatImage } from "./encoded-image";
import { StrangerImage } from "./stranger-image";
import { MutedHidden } from "../safety/muted-word-hidden";
import { useE2eSend } from "../e2e/encrypted-send";
import { EncryptedThreadText } from "../e2e/encrypted-view";

/** §2 Notes page: one note, its threaded replies and a reply box (private reply for non-authors with an avatar). */
export function NotesPage({ projectCode, note: initial }: { projectCode: string; note: ChatMessage & { threads?: ChatThread[] } }) {
  // §5/§6: a reply is a post; the reminder shows before sending (README Decisions "Posting rules").
  const posting = usePostingStatus("post");
  const e2eSend = useE2eSend();
  const { t } = useTranslation("chat");
  const toast = useToast();
  const [note, setNote] = useState(initial);
  const [text, setText] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  // Read after hydration so the server render (no local storage) and the first client render agree.
  const [session, setSession] = useState<ReturnType<typeof readSession>>(null);
  useEffect(() => setSession(readSession()), []);
  const own = session?.memberNo === note.memberNo;
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Where "back" leads when the note was opened directly (a shared link): its room if that is a page, else home.
  const roomHref =
    note.chatroomId === PUBLIC_CHATROOM_ID || note.chatroomId === HOME_CHATROOM_ID ? `/${projectCode}/public-chat/${note.chatroomId}` : `/${projectCode}/home`;

  function back() {
    // React Router numbers its history entries: idx 0 means this page is the first of the visit.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(roomHref);
  }

  /** §6: only the author edits or deletes a note; the server refuses anyone else (chatNotAuthor). */
  async function saveEdit(event: React.FormEvent) {
    event.preventDefault();
    if (!session) return;
    const body = await chat.editMessage(session.memberId, note.idChatroomMessage, draft);
    setEditing(false);
    if (!("info" in body)) return toast(errorText(t, body), "error");
    // §5: updating an own message with empty text deletes it.
    if (body.info.deleted) {
      toast(t("deleted"), "delete");
      return navigate(roomHref, { replace: true });
    }
    setNote((n) => ({ ...n, message: body.info.message, payload: body.info.payload, dateUdp: body.info.dateUdp }));
  }

  async function remove() {
    if (!session) return;
    const body = await chat.deleteMessage(session.memberId, note.idChatroomMessage);
    setConfirmDelete(false);
    // §8/§9: the failure toast 'deleteMessage' stays 3 s (the delete duration).
    if (body.returnCode !== "000000") return toast(t("deleteMessage"), "delete");
    toast(t("deleted"), "delete");
    navigate(roomHref, { replace: true });
  }

  const reload = useCallback(async () => {
    const body = await chat.message(note.idChatroomMessage);
    if ("info" in body) setNote(body.info);
  }, [note.idChatroomMessage]);

  /** "Show anyway" (README Decisions "Muted words"): the note and its replies with their text, asked for explicitly. */
  const showAnyway = useCallback(async () => {
    const body = await chat.message(note.idChatroomMessage, true);
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
    // A private reply is encrypted for the replier and the note's author (README Decisions "Everything private is
    // encrypted"), or sent as text only after "Send anyway".
    const sealer = isPrivate ? await e2eSend.sealerFor(note.memberNo, `thread-${note.idChatroomMessage}`).catch(() => null) : "plain";
    if (sealer === null) return;
    const sealed = sealer === "plain" ? { message } : { message: "", payload: await sealer(message) };
    const body = await chat.postThread(session.memberId, { idChatroomMessage: note.idChatroomMessage, isPrivate, ...sealed });
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
      <button type="button" className="link-button note-back" onClick={back}>
        ← {t("common:back")}
      </button>
      <header className="row">
        {/* The shared avatar: safe mode and the visitor blur with its login dialog (§6). */}
        <Avatar profile={note.profile ?? { simpleCode: note.memberNo, nickname: note.nickname, avator: "" }} size={48} link />
        <h1 className="note-author">{name}</h1>
        <span className="muted">
          <MessageTime iso={note.dateAdd} />
        </span>
      </header>
      {editing ? (
        <form className="row" onSubmit={saveEdit}>
          <label className="field chat-edit-field">
            <span className="visually-hidden">{t("editMessage")}</span>
            {/* biome-ignore lint/a11y/noAutofocus: the field appears because the member tapped Edit; typing goes straight into it */}
            <input value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={2000} autoFocus />
          </label>
          <button type="submit" className="button button-primary">
            {t("common:save")}
          </button>
          <button type="button" className="button" onClick={() => setEditing(false)}>
            {t("common:cancel")}
          </button>
        </form>
      ) : (
        <p className="note-body">{note.placeholder ? <em>{t("privatePlaceholder")}</em> : note.mutedWord ? <MutedHidden onShow={showAnyway} /> : note.message}</p>
      )}
      {own && !editing && !note.placeholder && (
        <div className="row chat-actions">
          {note.payload?.type === "text" && (
            <button type="button" className="button" onClick={() => {
                setDraft(note.message);
                setEditing(true);
              }}
            >
              {t("edit")}
            </button>
          )}
          <button type="button" className="button button-danger" onClick={() => setConfirmDelete(true)}>
            {t("common:delete")}
          </button>
        </div>
      )}
      {/* A note may be reported by another member: it disappears for them (README Decisions "Block evasion and per-item reports"). */}
      {session && !own && !note.placeholder && (
        <div className="row chat-actions">
          <ReportItemButton kind="chat" itemId={note.idChatroomMessage} memberNo={note.memberNo} name={note.nickname || note.memberNo} className="button" onReported={back} />
        </div>
      )}
      {confirmDelete && (
        <ConfirmDialog
          open
          onOpenChange={setConfirmDelete}
          title={t("deleteTitle")}
          description={t("deleteBody")}
          confirmLabel={t("common:delete")}
          onConfirm={() => void remove()}
          danger
        />
      )}
      {note.strangerBlur && note.payload?.type === "img" && <StrangerImage message={note} className="chat-image" />}
      {!note.strangerBlur && note.payload && (note.payload.type === "img" || note.payload.type === "encodedImage") && <ChatImage payload={note.payload} className="chat-image" alt={t("imageAlt", { name })} />}
      {e2eSend.dialog}
      <h2>{t("threads", { count: note.threadCount })}</h2>
      <ol className="note-threads" aria-label={t("replies")}>
        {(note.threads ?? []).map((thread) => (
          <li key={thread.idChatMessageThread} className="chat-message">
            <div className="chat-message-head">
              <span className="chat-name">{thread.profile?.nickname || thread.profile?.simpleCode}</span>
              {thread.isPrivate && <span className="chat-private-tag">{t("private")}</span>}
              {/* A private reply sent without end-to-end encryption says so, as in conversations. */}
              {thread.isPrivate && !thread.payload && thread.message !== "private message" && (
                <span className="e2e-mark">
                  🔓 {t("e2e:notEncrypted")}
                </span>
              )}
              <span className="muted chat-time">
                <MessageTime iso={thread.dateAdd} />
              </span>
            </div>
            <p className="chat-body">
              {thread.message === "private message" && thread.isPrivate ? (
                <em className="muted">{t("privatePlaceholder")}</em>
              ) : thread.payload ? (
                <EncryptedThreadText payload={thread.payload} idChatroomMessage={note.idChatroomMessage} senderNo={thread.profile?.simpleCode ?? ""} stored={thread} />
              ) : thread.mutedWord ? (
                <MutedHidden onShow={showAnyway} />
              ) : (
                thread.message
              )}
            </p>
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
              // biome-ignore lint/a11y/noLabelWithoutControl: the switch inside is a button, which a label does name and click
              <label className="chat-switch">
                <Switch checked={isPrivate} onCheckedChange={togglePrivate} aria-label={t("privateReply")} />
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
