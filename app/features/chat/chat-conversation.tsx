import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { POSTING_CODES, PostingReminder, usePostingStatus } from "../posting/posting-reminder";
import type { ChatMessage, Payload } from "../../../worker/contract/chat";
import { DIRECT_CHATROOM } from "../../../worker/contract/chat.constants";
import { useToast } from "../../components/toast";
import { UploadProgress } from "../../components/upload-progress";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { uploadWithProgress } from "../../lib/upload";
import { useE2eConversation } from "../e2e/e2e-conversation";
import { useE2eSend } from "../e2e/encrypted-send";
import { MessageItem } from "./message-item";
import { useChatRoom, type LocalMessage } from "./use-chat-room";
import { FIRST_PAINT, PAINT_STEP } from "./chat-paging";
import { Icon } from "../../components/icon";

export type SendOptions = { isPrivate: boolean; toMemberNo: string | null };

/** §9: chat input scroll retries at 100, 500 and 1000 ms (images may still be loading). */
function scrollToEnd(list: HTMLElement | null) {
  if (!list || localStorage.getItem("disableRollToBottom") === "true") return;
  for (const delay of [0, 100, 500, 1000]) setTimeout(() => list.scrollTo({ top: list.scrollHeight }), delay);
}

/**
 * A chatroom conversation: messages (live), the send box (Enter sends, empty text is not sent), image send.
 * One-to-one rooms encrypt end to end for every device of both members, or ask first (README Decisions
 * "Verifiable end-to-end keys").
 */
export function ChatConversation({
  projectCode,
  chatroomId,
  title,
  peerMemberNo,
  sendOptions,
  filter,
  onPickMember,
  onMessages,
  composeExtras,
  initialMessages,
  initialPartial,
}: {
  projectCode: string;
  chatroomId: string;
  title: string;
  peerMemberNo?: string;
  sendOptions?: SendOptions;
  filter?: (message: LocalMessage) => boolean;
  onPickMember?: (memberNo: string, nickname: string) => void;
  onMessages?: (messages: LocalMessage[]) => void;
  composeExtras?: React.ReactNode;
  /** The first page read by the page loader, so the newest messages are in the server-rendered HTML. */
  initialMessages?: ChatMessage[] | null;
  /** `initialMessages` are only the newest of the first page; the rest is read after hydration. */
  initialPartial?: boolean;
}) {
  const { t } = useTranslation("chat");
  const toast = useToast();
  const room = useChatRoom(projectCode, chatroomId, { initial: initialMessages, initialPartial });
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  /** The fraction of an image upload sent, while one is under way. */
  const [imageProgress, setImageProgress] = useState<number | null>(null);
  // §5/§6: posts need a qualifying avatar (one-to-one rooms only the sending rules); the reminder shows first.
  const posting = usePostingStatus(DIRECT_CHATROOM.test(chatroomId) ? "send" : "post");
  const e2e = useE2eConversation(peerMemberNo ?? null, chatroomId);
  const e2eSend = useE2eSend();
  const visible = filter ? room.messages.filter(filter) : room.messages;
  const [limit, setLimit] = useState(FIRST_PAINT);
  const shown = visible.length > limit ? visible.slice(-limit) : visible;
  // Only what is here to show: while the rest of the first page is on its way, the button waits for it (observing a
  // button that can show nothing would step `limit` up without end).
  const hasOlder = visible.length > shown.length;
  const olderRef = useRef<HTMLButtonElement>(null);
  // How far the list's end was below the view when older messages were asked for: kept while they are added above.
  const fromEnd = useRef<number | null>(null);
  const partial = room.partial;
  const total = visible.length;
  const showOlder = useCallback(() => {
    const list = listRef.current;
    if (list) fromEnd.current = list.scrollHeight - list.scrollTop;
    // Fully shown once the whole first page is in: from then on live messages and filters never hide any.
    startTransition(() => setLimit((n) => (n + PAINT_STEP >= total && !partial ? Infinity : n + PAINT_STEP)));
  }, [total, partial]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after the step that showed older messages commits
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && fromEnd.current !== null) list.scrollTop = list.scrollHeight - fromEnd.current;
    fromEnd.current = null;
  }, [limit]);
  // New messages (and the first paint) bring the newest into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again whenever a message comes, which the ref cannot tell
  useEffect(() => scrollToEnd(listRef.current), [room.messages.length]);
  // The "earlier messages" button at the top shows the next step by itself when scrolled near. Observed after the
  // first scroll to the newest (a task that scrollToEnd queued first), and again after each step, so a list still
  // shorter than its box keeps filling.
  // biome-ignore lint/correctness/useExhaustiveDependencies: observed anew after each step (`limit`), see above
  useEffect(() => {
    const list = listRef.current;
    const older = olderRef.current;
    if (!list || !older || !hasOlder) return;
    let observer: IntersectionObserver | undefined;
    const timer = setTimeout(() => {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && showOlder(), { root: list, rootMargin: "200px 0px 0px 0px" });
      observer.observe(older);
    }, 0);
    return () => {
      clearTimeout(timer);
      observer?.disconnect();
    };
  }, [hasOlder, showOlder, limit]);
  useEffect(() => onMessages?.(room.messages), [room.messages, onMessages]);

  async function deliver(input: { message: string; payload?: Payload; preview?: string }) {
    const failure = await room.send({ ...input, isPrivate: sendOptions?.isPrivate, toMemberNo: sendOptions?.toMemberNo ?? null });
    if (failure) toast(errorText(t, failure), "error");
    if (failure && POSTING_CODES.has(failure.returnCode)) void posting.reload();
    return !failure;
  }

  async function submit(event?: React.FormEvent) {
    event?.preventDefault();
    const message = text.trim();
    // §5: empty or whitespace text is not sent; a refused member reads the reminder above instead.
    if (!message || busy || posting.refused) return;
    setBusy(true);
    setText("");
    const session = readSession();
    let sent = false;
    if (peerMemberNo && session) {
      // No silent downgrade: without the recipient's keys the member chooses; null means they cancelled.
      const outcome = await e2e.prepare(message).catch(() => null);
      if (outcome && "payload" in outcome) sent = await deliver({ message: "", payload: outcome.payload, preview: message });
      else if (outcome) sent = await deliver({ message });
    } else if (sendOptions?.isPrivate && sendOptions.toMemberNo && session) {
      // A private reply in a shared room is encrypted for both members too (README Decisions "Everything private is encrypted").
      const sealer = await e2eSend.sealerFor(sendOptions.toMemberNo, chatroomId).catch(() => null);
      if (sealer === "plain") sent = await deliver({ message });
      else if (sealer) sent = await deliver({ message: "", payload: await sealer(message), preview: message });
    } else sent = await deliver({ message });
    if (!sent) setText(message);
    setBusy(false);
  }

  async function sendImage(file: File) {
    const session = readSession();
    if (!session) return;
    const form = new FormData();
    form.set("file", file);
    // An image for a private message is a private upload: only its sender and recipient can load it.
    const isPrivate = DIRECT_CHATROOM.test(chatroomId) || Boolean(sendOptions?.isPrivate && sendOptions.toMemberNo);
    const peerNo = peerMemberNo ?? (sendOptions?.isPrivate ? sendOptions.toMemberNo : null);
    if (isPrivate && peerNo) {
      // Encrypted in this browser when the peer has keys; the plain private upload only after "Send anyway".
      setImageProgress(0);
      const sealed = await e2eSend.sealImage(peerNo, chatroomId, file, setImageProgress).catch(() => null);
      setImageProgress(null);
      if (sealed === null) return;
      if (sealed !== "plain") {
        if ("failure" in sealed) return toast(errorText(t, sealed.failure), "error");
        await deliver({ message: "", payload: sealed.payload });
        return;
      }
    }
    form.set("type", isPrivate ? "private" : "photo");
    // §4 encoded images: a room image lives at a public /media address, so it is stored scrambled and the key
    // travels in the message (a private image is already served only to its two members by /private-media).
    if (!isPrivate) form.set("encode", "true");
    setImageProgress(0);
    const upload = await uploadWithProgress<{ url: string; scrambleKey?: string }>(`/private/core/files/${session.memberId}`, form, setImageProgress);
    setImageProgress(null);
    if (!("info" in upload)) return toast(errorText(t, upload), "error");
    const { url, scrambleKey } = upload.info;
    await deliver({ message: "", payload: scrambleKey ? { type: "encodedImage", src: url, key: scrambleKey } : { type: "img", src: url } });
  }

  return (
    <section className="chat-conversation" aria-label={title}>
      {room.status === "closed" && room.loaded && (
        <p className="chat-offline" role="status">
          {t("reconnecting")}
        </p>
      )}
      {e2e.ui}
      {e2eSend.dialog}
      <ol className="chat-list" ref={listRef} aria-label={t("messages")} aria-live="polite">
        {!room.loaded && <li className="muted">{t("common:loading")}</li>}
        {room.loaded && visible.length === 0 && <li className="empty-state">{t("noMessages")}</li>}
        {hasOlder && (
          <li className="chat-older">
            <button ref={olderRef} type="button" className="link-button" onClick={showOlder}>
              {t("earlierMessages")}
            </button>
          </li>
        )}
        {shown.map((message) => (
          <MessageItem key={`${message.idChatroomMessage}-${message.requestId}`} message={message} projectCode={projectCode} onChanged={room.replace} onRemoved={room.remove} onPickMember={onPickMember} />
        ))}
      </ol>
      <form className="chat-send" onSubmit={submit}>
        <PostingReminder projectCode={projectCode} posting={posting} />
        {composeExtras}
        {imageProgress !== null && <UploadProgress value={imageProgress} />}
        <div className="chat-send-row">
          <div className="chat-input">
            <textarea
              aria-label={t("messageLabel")}
              rows={1}
              value={text}
              placeholder={t("placeholder")}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // §5: Enter sends; Shift+Enter starts a new line.
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void submit();
                }
              }}
            />
          </div>
          <input
            ref={fileRef}
            type="file"
            accept="image/png,image/jpeg"
            hidden
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) void sendImage(file);
            }}
            aria-label={t("sendImage")}
          />
          <button type="button" className="icon-button" aria-label={t("sendImage")} disabled={imageProgress !== null || posting.refused} onClick={() => fileRef.current?.click()}>
            <Icon name="image" />
          </button>
          <button type="submit" className="button button-primary" disabled={busy || posting.refused}>
            {t("send")}
          </button>
        </div>
      </form>
    </section>
  );
}
