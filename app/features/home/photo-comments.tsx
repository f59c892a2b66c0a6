import { Switch } from "../../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PostingReminder, usePostingStatus } from "../posting/posting-reminder";
import type { ChatMessage, ChatThread } from "../../../worker/contract/chat";
import { useToast } from "../../components/toast";
import * as chat from "../../api/chat-api";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { useE2eSend } from "../e2e/encrypted-send";
import { EncryptedThreadText } from "../e2e/encrypted-view";
import { usePersonalRoomId } from "../shell/personal-room";
import { Dialog } from "../../components/dialog";

/**
 * §2 photo card comment icon: a modal with the owner's chatroom messages and their thread replies
 * (§9 modal page size 100), and a reply box with the private-reply switch (§4/§5: needs an avatar).
 */
export function PhotoComments({ open, onOpenChange, memberNo, ownerName, hasAvatar }: { open: boolean; onOpenChange: (o: boolean) => void; memberNo: string; ownerName: string; hasAvatar: boolean }) {
  // §5/§6: a comment is a post; the reminder shows before sending.
  const posting = usePostingStatus("post");
  const e2eSend = useE2eSend();
  const { t } = useTranslation("home");
  const toast = useToast();
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [text, setText] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  const [threads, setThreads] = useState<Record<number, ChatThread[]>>({});
  const chatroomId = usePersonalRoomId(memberNo);

  async function load() {
    if (!chatroomId) return;
    const body = await chat.commentMessages(chatroomId);
    if ("info" in body) setMessages(body.info);
    else setMessages([]);
  }
  /** The list carries thread counts; a message's replies come with its detail. */
  async function openThread(message: ChatMessage) {
    setReplyTo(message);
    const body = await chat.message(message.idChatroomMessage);
    if ("info" in body) setThreads((all) => ({ ...all, [message.idChatroomMessage]: body.info.threads ?? [] }));
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the sheet opens or the photo changes, not when `load` is re-created
  useEffect(() => {
    if (open && chatroomId) void load();
  }, [open, chatroomId]);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const message = text.trim();
    const session = readSession();
    if (!message || !session || !chatroomId) return;
    // A private reply is encrypted for the replier and the comment's author (README Decisions "Everything private is encrypted").
    const sealer = replyTo && isPrivate ? await e2eSend.sealerFor(replyTo.memberNo, `thread-${replyTo.idChatroomMessage}`).catch(() => null) : "plain";
    if (sealer === null) return;
    const sealed = sealer === "plain" ? { message } : { message: "", payload: await sealer(message) };
    const body = replyTo
      ? await chat.postThread(session.memberId, { idChatroomMessage: replyTo.idChatroomMessage, isPrivate, ...sealed })
      : await chat.postMessage(chatroomId, session.memberId, {
          message,
          payload: { type: "text", content: message },
          requestId: crypto.randomUUID().replace(/-/g, ""),
          isPrivate: false,
        });
    if ("info" in body) {
      setText("");
      if (replyTo) void openThread(replyTo);
      else void load();
    } else toast(errorText(t, body), "error");
  }

  return (
    <Dialog
      className="dialog comments-dialog"
      open={open}
      onOpenChange={onOpenChange}
      title={t("comments.title", { name: ownerName })}
      description={t("comments.placeholder")}
      descriptionClassName="visually-hidden"
      returnFocus
      closeLabel={t("common:close")}
    >
      {messages === null ? (
        <p className="muted">{t("common:loading")}</p>
      ) : messages.length === 0 ? (
        <p className="empty-state">{t("comments.empty")}</p>
      ) : (
        <ul className="comment-list">
          {messages.map((m) => (
            <li key={m.idChatroomMessage} className="comment">
              <p>
                <strong>{m.profile?.nickname || m.nickname || m.memberNo}</strong>{" "}
                {m.placeholder ? <em className="muted">{t("comments.privateLabel")}</em> : m.message}
              </p>
              {(threads[m.idChatroomMessage] ?? []).length > 0 && (
                <ul className="comment-threads" aria-label={t("comments.threads", { count: threads[m.idChatroomMessage]!.length })}>
                  {threads[m.idChatroomMessage]!.map((th) => (
                    <li key={th.idChatMessageThread}>
                      <strong>{th.profile?.nickname ?? ""}</strong>{" "}
                      {th.payload ? (
                        <EncryptedThreadText payload={th.payload} idChatroomMessage={m.idChatroomMessage} senderNo={th.profile?.simpleCode ?? ""} stored={th} />
                      ) : (
                        th.message || <em className="muted">{t("comments.privateLabel")}</em>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              <button type="button" className="link-button" onClick={() => void openThread(m)} aria-label={t("comments.replyTo", { name: m.profile?.nickname || m.memberNo })}>
                {m.threadCount > 0 ? `${t("comments.reply")} · ${t("comments.threads", { count: m.threadCount })}` : t("comments.reply")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {e2eSend.dialog}
      <form className="form" onSubmit={send}>
        {posting.status && <PostingReminder projectCode={readSession()?.projectCode ?? "smp"} posting={posting} />}
        {replyTo && <p className="muted">{t("comments.replyTo", { name: replyTo.profile?.nickname || replyTo.memberNo })}</p>}
        <label className="field">
          <span className="visually-hidden">{t("comments.placeholder")}</span>
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder={t("comments.placeholder")} maxLength={2000} />
        </label>
        <div className="row">
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the switch inside is a button, which a label does name and click */}
          <label className="row switch-row">
            <Switch
              checked={isPrivate}
              disabled={!hasAvatar || !replyTo}
              onCheckedChange={(v) => (hasAvatar ? setIsPrivate(v) : toast(t("comments.privateNeedsAvatar"), "warning"))}
              aria-label={t("comments.private")}
            />
            <span aria-hidden="true">{t("comments.private")}</span>
          </label>
          {!hasAvatar && <span className="muted small">{t("comments.privateNeedsAvatar")}</span>}
          <button type="submit" className="button button-primary" disabled={!text.trim() || posting.refused}>
            {t("comments.send")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
