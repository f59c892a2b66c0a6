import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Payload } from "../../../worker/contract/chat";
import { readSession } from "../../lib/session-keys";
import type { Decrypted, StoredRow } from "./chat-crypto";
import { e2eCode } from "./late-e2e";

type EncryptedPayload = Extract<Payload, { type: "encrypted" }>;

/** A chat message as stored: its id and the server's time, for the replay and re-dating checks. */
type Stored = { idChatroomMessage: number; dateAdd: string };

/**
 * The verified plaintext of an envelope (chat-crypto.ts `decryptPayload`), undefined while it is worked out. `stored`
 * turns on signed payload v2's checks: a repeated message id in the context or a time far from the stored one fails
 * (none for an optimistic copy, whose id and time are not the server's yet).
 */
export function useDecrypted(payload: EncryptedPayload, context: string, senderNo: string, stored: StoredRow | undefined) {
  const [result, setResult] = useState<Decrypted | undefined>(undefined);
  // Primitives, not the row object: a parent's re-render must not decrypt again.
  const storedKind = stored?.kind;
  const storedId = stored?.id;
  const storedAt = stored?.dateAdd;
  useEffect(() => {
    // Another payload (an edit in place): nothing of the previous one stays on screen while this one is checked.
    setResult(undefined);
    const session = readSession();
    if (!session) return setResult({ status: "unavailable" });
    let alive = true;
    const row = storedKind === undefined || storedId === undefined || storedAt === undefined ? undefined : { kind: storedKind, id: storedId, dateAdd: storedAt };
    void e2eCode
      .fetch()
      .then(({ decryptPayload }) => decryptPayload(payload, context, senderNo, session.memberId, session.memberNo, row))
      // Offline before the end-to-end code arrived: the neutral note, as for a missing key.
      .catch((): Decrypted => ({ status: "unavailable" }))
      .then((r) => alive && setResult(r));
    return () => {
      alive = false;
    };
  }, [payload, context, senderNo, storedKind, storedId, storedAt]);
  return result;
}

/** The notes shown instead of what could not be decrypted (README Decisions "Verifiable end-to-end keys"). */
function Failed({ result }: { result: Decrypted | undefined }) {
  const { t } = useTranslation("chat");
  if (result === undefined) return <span className="muted">{t("decrypting")}</span>;
  if (result.status === "unverified") return <span className="e2e-unverified">⚠ {t("e2e:unverified")}</span>;
  return <span className="muted">🔒 {t("encryptedUnavailable")}</span>;
}

/**
 * An encrypted private thread reply (README Decisions "Everything private is encrypted"): signed for
 * `thread-<note id>`, so it cannot be moved under another note.
 */
export function EncryptedThreadText({
  payload,
  idChatroomMessage,
  senderNo,
  stored,
}: { payload: EncryptedPayload; idChatroomMessage: number; senderNo: string; stored: { idChatMessageThread: number; dateAdd: string } }) {
  const { t } = useTranslation("chat");
  const result = useDecrypted(payload, `thread-${idChatroomMessage}`, senderNo, { kind: "thread", id: stored.idChatMessageThread, dateAdd: stored.dateAdd });
  if (result?.status !== "ok") return <Failed result={result} />;
  return (
    <span>
      <span role="img" aria-label={t("encrypted")} title={t("encrypted")}>
        🔒{" "}
      </span>
      {result.text}
    </span>
  );
}

/**
 * An encrypted image of a private message: the signed descriptor first, then the file, decrypted here and shown from
 * a blob URL (revoked when the message leaves the screen). Nothing is shown unless both verify.
 */
export function EncryptedImage({
  payload,
  context,
  senderNo,
  stored,
  alt,
  className,
}: { payload: EncryptedPayload; context: string; senderNo: string; stored: Stored | undefined; alt: string; className: string }) {
  const { t } = useTranslation("e2e-media");
  const result = useDecrypted(payload, context, senderNo, stored && { kind: "message", id: stored.idChatroomMessage, dateAdd: stored.dateAdd });
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const text = result?.status === "ok" ? result.text : null;
  useEffect(() => {
    if (text === null) return;
    const media = payload.media;
    if (!media) return setUrl(null);
    let alive = true;
    let made: string | null = null;
    void e2eCode
      .fetch()
      .then(({ decryptImage, readDescriptor }) => {
        const descriptor = readDescriptor(text, media);
        return descriptor ? decryptImage(descriptor) : null;
      })
      .catch(() => null)
      .then((u) => {
        made = u;
        if (alive) setUrl(u);
        else if (u) URL.revokeObjectURL(u);
      });
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [text, payload.media]);
  if (result?.status !== "ok") return <Failed result={result} />;
  if (url === undefined) return <span className="muted">{t("imageDecrypting")}</span>;
  if (url === null) return <span className="muted">🔒 {t("imageUnavailable")}</span>;
  return (
    <span className="chat-image-e2e">
      <img src={url} alt={alt} className={className} />
      <span className="e2e-image-mark" role="img" aria-label={t("encryptedImage")} title={t("encryptedImage")}>
        🔒
      </span>
    </span>
  );
}
