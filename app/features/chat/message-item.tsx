import { ReportItemButton } from "../social/report-item-dialog";
import { memo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { ChatReaction, Payload } from "../../../worker/contract/chat";
import { DIRECT_CHATROOM } from "../../../worker/contract/chat.constants";
import { Avatar } from "../../components/avatar";
import { ConfirmDialog, FormDialog } from "../../components/dialog";
import { useToast } from "../../components/toast";
import * as chat from "../../api/chat-api";
import { errorText } from "../../lib/error-text";
import { EncryptedImage, useDecrypted } from "../e2e/encrypted-view";
import { ChatImage } from "./encoded-image";
import { StrangerImage } from "./stranger-image";
import { MutedHidden, MuteWordsDialog } from "../safety/muted-word-hidden";
import type { LocalMessage } from "./use-chat-room";
import { readSession } from "../../lib/session-keys";
import { useMyMemberNo } from "../shell/viewer";
import { MessageTime } from "./message-time";

export const REACTIONS = ["❤️", "🔥", "😂", "😮", "👍"];

function EncryptedText({ message, payload }: { message: LocalMessage; payload: Extract<Payload, { type: "encrypted" }> }) {
  const { t } = useTranslation("chat");
  const { projectCode = "smp" } = useParams();
  // The stored row's id and time (not an optimistic copy's) let the reader catch replays (chat-crypto.ts).
  const result = useDecrypted(payload, message.chatroomId, message.memberNo, message.pending ? undefined : { kind: "message", id: message.idChatroomMessage, dateAdd: message.dateAdd });
  if (result === undefined) return <span className="muted">{t("decrypting")}</span>;
  // README Decisions "Verifiable end-to-end keys": a signature that does not verify never shows its text.
  if (result.status === "unverified") return <span className="e2e-unverified">⚠ {t("e2e:unverified")}</span>;
  // README Decisions "Linking a second device": say why, and where to link.
  if (result.status === "unavailable" && result.reason === "notLinked")
    return (
      <span className="muted">
        🔒 {t("e2e-link:notLinked")} <Link to={`/${projectCode}/settings#e2e-devices`}>{t("e2e-link:linkHere")}</Link>
      </span>
    );
  // §8: a missing decryption key is only logged; the member sees a neutral note.
  if (result.status === "unavailable") return <span className="muted">🔒 {t("encryptedUnavailable")}</span>;
  return (
    <span>
      <span role="img" aria-label={t("encrypted")} title={t("encrypted")}>
        🔒{" "}
      </span>
      {result.text}
    </span>
  );
}

function Body({ message, onAcceptImage, onReveal }: { message: LocalMessage; onAcceptImage: () => void; onReveal: () => Promise<void> }) {
  const { t } = useTranslation("chat");
  if (message.placeholder) return <em className="muted">{t("privatePlaceholder")}</em>;
  if (message.mutedWord) return <MutedHidden onShow={onReveal} />;
  const payload = message.payload;
  // README Decisions "Everything private is encrypted": an encrypted image is decrypted here (e2e/encrypted-view.tsx).
  if (payload?.type === "encrypted" && payload.media) {
    return (
      <span className="chat-image-wrap">
        <EncryptedImage payload={payload} context={message.chatroomId} senderNo={message.memberNo} stored={message.pending ? undefined : message} alt={t("imageAlt", { name: message.nickname || message.memberNo })} className={message.blurred ? "chat-image blurred" : "chat-image"} />
        {message.blurred && (
          <button type="button" className="button chat-image-accept" onClick={onAcceptImage}>
            {t("showImage")}
          </button>
        )}
      </span>
    );
  }
  if (payload?.type === "encrypted") return <EncryptedText message={message} payload={payload} />;
  // README Decisions "Stranger media stays blurred": the server sent the rendition only; "Show" asks for this one.
  if (message.strangerBlur && payload?.type === "img") return <StrangerImage message={message} className="chat-image" />;
  if (payload?.type === "img" || payload?.type === "encodedImage") {
    return (
      <span className="chat-image-wrap">
        <ChatImage payload={payload} alt={t("imageAlt", { name: message.nickname || message.memberNo })} className={message.blurred ? "chat-image blurred" : "chat-image"} />
        {message.blurred && (
          <button type="button" className="button chat-image-accept" onClick={onAcceptImage}>
            {t("showImage")}
          </button>
        )}
      </span>
    );
  }
  if (payload?.type === "emoji") return <span className="chat-emoji">{payload.emoji}</span>;
  return (
    <span>
      {payload?.type === "text" && payload.replyContent && <q className="chat-quote">{payload.replyContent}</q>}
      {message.message}
    </span>
  );
}

function reactionSummary(reactions: ChatReaction[]) {
  const counts = new Map<string, number>();
  for (const r of reactions) counts.set(r.reactEmoji, (counts.get(r.reactEmoji) ?? 0) + 1);
  return [...counts.entries()];
}

/**
 * One chat message with its actions: react, reply in a thread (notes page), edit and delete own, set a reminder.
 * Unread messages addressed to the member are drawn in another colour (§4).
 * Memoised, and its dialogs mount only while open: a room renders up to 200 of these, and the list must not
 * re-render (or build two closed dialogs each) when the socket status or another message changes.
 */
export const MessageItem = memo(function MessageItem({
  message,
  projectCode,
  onChanged,
  onRemoved,
  onPickMember,
}: {
  message: LocalMessage;
  projectCode: string;
  onChanged: (message: LocalMessage) => void;
  onRemoved: (id: number) => void;
  onPickMember?: (memberNo: string, nickname: string) => void;
}) {
  const { t } = useTranslation("chat");
  const toast = useToast();
  const viewerNo = useMyMemberNo();
  const own = viewerNo !== null && viewerNo === message.memberNo;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.message);
  const [reminderOpen, setReminderOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reactOpen, setReactOpen] = useState(false);
  const [muteOpen, setMuteOpen] = useState(false);
  const reactMenu = useRef<HTMLDetailsElement>(null);
  const name = message.profile?.nickname || message.nickname || message.memberNo;

  async function react(emoji: string) {
    const session = readSession();
    if (!session) return;
    const body = await chat.react(session.memberId, message.idChatroomMessage, emoji);
    if ("info" in body) onChanged({ ...message, replyPayload: body.info.replyPayload });
    else toast(errorText(t, body), "error");
  }

  /** The picker closes once a reaction is chosen. */
  function pickReaction(emoji: string) {
    if (reactMenu.current) reactMenu.current.open = false;
    setReactOpen(false);
    return react(emoji);
  }

  async function saveEdit(event: React.FormEvent) {
    event.preventDefault();
    const session = readSession();
    if (!session) return;
    const body = await chat.editMessage(session.memberId, message.idChatroomMessage, draft);
    setEditing(false);
    if (!("info" in body)) return toast(errorText(t, body), "error");
    // §5: updating an own message with empty text deletes it.
    if (body.info.deleted) onRemoved(message.idChatroomMessage);
    else onChanged({ ...message, ...body.info });
  }

  async function remove() {
    const session = readSession();
    if (!session) return;
    const body = await chat.deleteMessage(session.memberId, message.idChatroomMessage);
    setConfirmDelete(false);
    if (body.returnCode === "000000") {
      onRemoved(message.idChatroomMessage);
      toast(t("deleted"), "delete");
    } else toast(t("deleteMessage"), "delete");
  }

  /** "Show anyway": this one message's text, asked for explicitly (README Decisions "Muted words"). */
  async function reveal() {
    const body = await chat.message(message.idChatroomMessage, true);
    if ("info" in body) onChanged({ ...message, message: body.info.message, payload: body.info.payload, mutedWord: false });
    else toast(errorText(t, body), "error");
  }

  async function acceptImage() {
    const session = readSession();
    if (!session) return;
    const body = await chat.acceptImage(session.memberId, message.idChatroomMessage);
    if (body.returnCode === "000000") onChanged({ ...message, blurred: false });
  }

  async function saveReminder(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const date = String(form.get("date") ?? "");
    const time = String(form.get("time") || "09:00");
    // §9: reminders are kept in UTC; the member picks a UTC date.
    const body = await chat.addReminder({
      idChatroomMessage: message.idChatroomMessage,
      title: String(form.get("title") ?? ""),
      description: String(form.get("description") ?? ""),
      remindAt: `${date}T${time}:00.000Z`,
    });
    if (body.returnCode === "000000") {
      setReminderOpen(false);
      toast(t("reminderSaved"), "success");
    } else toast(errorText(t, body as { returnCode: string; returnMessage: string }), "error");
  }

  const unread = !own && !message.read;
  return (
    <li className={`chat-message${own ? " chat-message-own" : ""}${unread ? " chat-message-unread" : ""}${message.pending ? " chat-message-pending" : ""}`} data-message-id={message.idChatroomMessage}>
      <div className="chat-message-head">
        <Avatar profile={message.profile ?? { simpleCode: message.memberNo, nickname: name, avator: "" }} size={32} />
        {onPickMember && !own ? (
          <button type="button" className="chat-name link-button" onClick={() => onPickMember(message.memberNo, name)} aria-label={t("replyPrivatelyTo", { name })}>
            {name}
          </button>
        ) : (
          <span className="chat-name">{name}</span>
        )}
        {(message.profile?.kycStatus ?? 0) >= 1 && <span className="badge" title={t("verified")}>✓</span>}
        {message.isPrivate && <span className="chat-private-tag">{t("private")}</span>}
        <span className="muted chat-time">
          {message.pending ? t("sending") : <MessageTime iso={message.dateAdd} />}
          {unread && <span className="visually-hidden">{t("unread")}</span>}
        </span>
      </div>
      {editing ? (
        <form className="row" onSubmit={saveEdit}>
          <label className="field chat-edit-field">
            <span className="visually-hidden">{t("editMessage")}</span>
            {/* biome-ignore lint/a11y/noAutofocus: the field appears because the member tapped Edit; typing goes straight into it */}
            <input value={draft} onChange={(e) => setDraft(e.target.value)} autoFocus />
          </label>
          <button type="submit" className="button button-primary">
            {t("common:save")}
          </button>
          <button type="button" className="button" onClick={() => setEditing(false)}>
            {t("common:cancel")}
          </button>
        </form>
      ) : (
        <p className="chat-body">
          <Body message={message} onAcceptImage={acceptImage} onReveal={reveal} />
          {/* A private message that went without end-to-end encryption says so (README Decisions "Verifiable end-to-end keys"). */}
          {!message.placeholder && (message.isPrivate || DIRECT_CHATROOM.test(message.chatroomId)) && message.payload?.type !== "encrypted" && (
            <span className="e2e-mark">
              <br />
              🔓 {t("e2e:notEncrypted")}
            </span>
          )}
        </p>
      )}
      {!message.placeholder && !message.pending && (
        <div className="chat-actions">
          {/* A chip adds that reaction, or takes back the member's own (the server toggles: same emoji again removes it). */}
          {reactionSummary(message.replyPayload).map(([emoji, n]) => {
            const mine = viewerNo !== null && message.replyPayload.some((r) => r.reactEmoji === emoji && r.memberNo === viewerNo);
            return (
              <button
                key={emoji}
                type="button"
                className={`chat-reaction${mine ? " chat-reaction-mine" : ""}`}
                aria-pressed={mine}
                aria-label={t(mine ? "rules:reactions.remove" : "rules:reactions.add", { emoji, n })}
                onClick={() => void react(emoji)}
              >
                {emoji} {n}
              </button>
            );
          })}
          <details ref={reactMenu} className="chat-react-menu" onToggle={(e) => setReactOpen(e.currentTarget.open)}>
            <summary aria-label={t("react")}>☺</summary>
            {/* Built on first open: a page of 200 messages would otherwise render 1,000 hidden buttons. */}
            {reactOpen && (
              <div className="row">
                {REACTIONS.map((emoji) => (
                  <button key={emoji} type="button" className="icon-button" aria-label={t("reactWith", { emoji })} onClick={() => void pickReaction(emoji)}>
                    {emoji}
                  </button>
                ))}
              </div>
            )}
          </details>
          <Link className="chat-action" to={`/${projectCode}/notes/${message.idChatroomMessage}`}>
            {t("threads", { count: message.threadCount })}
          </Link>
          <button type="button" className="chat-action link-button" onClick={() => setReminderOpen(true)}>
            {t("remind")}
          </button>
          {!own && viewerNo !== null && (
            <button type="button" className="chat-action link-button" onClick={() => setMuteOpen(true)}>
              {t("muted:muteWords")}
            </button>
          )}
          {own && message.payload?.type === "text" && (
            <button type="button" className="chat-action link-button" onClick={() => {
                setDraft(message.message);
                setEditing(true);
              }}
            >
              {t("edit")}
            </button>
          )}
          {own && (
            <button type="button" className="chat-action link-button" onClick={() => setConfirmDelete(true)}>
              {t("common:delete")}
            </button>
          )}
          {/* Another member's message (not a private one meant for others) may be reported: it disappears for me. */}
          {!own && viewerNo !== null && !message.placeholder && !message.pending && (
            <ReportItemButton kind="chat" itemId={message.idChatroomMessage} memberNo={message.memberNo} name={name} onReported={() => onRemoved(message.idChatroomMessage)} />
          )}
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
      {muteOpen && <MuteWordsDialog projectCode={projectCode} onClose={() => setMuteOpen(false)} />}
      {reminderOpen && (
        <FormDialog open onOpenChange={setReminderOpen} title={t("reminderTitle")} description={t("reminderHint")} descriptionClassName="dialog-body muted" submitLabel={t("common:save")} onSubmit={saveReminder}>
          <label className="field">
            <span>{t("reminderName")}</span>
            <input name="title" required maxLength={120} defaultValue={message.placeholder ? "" : message.message.slice(0, 60)} />
          </label>
          <label className="field">
            <span>{t("reminderDescription")}</span>
            <textarea name="description" rows={3} maxLength={1000} />
          </label>
          <label className="field">
            <span>{t("reminderDate")}</span>
            <input name="date" type="date" required defaultValue={new Date().toISOString().slice(0, 10)} />
          </label>
          <label className="field">
            <span>{t("reminderTime")}</span>
            <input name="time" type="time" defaultValue="09:00" />
          </label>
        </FormDialog>
      )}
    </li>
  );
});
