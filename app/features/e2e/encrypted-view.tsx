import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Payload } from "../../../worker/contract/chat";
import { readSession } from "../../lib/session-keys";
import { decryptPayload, type Decrypted } from "../chat/chat-crypto";
import { decryptImage, readDescriptor } from "./encrypted-media";
import "./encrypted-media.css";

type EncryptedPayload = Extract<Payload, { type: "encrypted" }>;

/** The verified plaintext of an envelope (chat-crypto.ts `decryptPayload`), undefined while it is worked out. */
function useDecrypted(payload: EncryptedPayload, context: string, senderNo: string) {
  const [result, setResult] = useState<Decrypted | undefined>(undefined);
  useEffect(() => {
    const session = readSession();
    if (!session) return setResult({ status: "unavailable" });
    let alive = true;
    void decryptPayload(payload, context, senderNo, session.memberId, session.memberNo).then((r) => alive && setResult(r));
    return () => {
      alive = false;
    };
  }, [payload, context, senderNo]);
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
export function EncryptedThreadText({ payload, idChatroomMessage, senderNo }: { payload: EncryptedPayload; idChatroomMessage: number; senderNo: string }) {
  const { t } = useTranslation("chat");
  const result = useDecrypted(payload, `thread-${idChatroomMessage}`, senderNo);
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
export function EncryptedImage({ payload, context, senderNo, alt, className }: { payload: EncryptedPayload; context: string; senderNo: string; alt: string; className: string }) {
  const { t } = useTranslation("e2e-media");
  const result = useDecrypted(payload, context, senderNo);
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const text = result?.status === "ok" ? result.text : null;
  useEffect(() => {
    if (text === null) return;
    const descriptor = payload.media ? readDescriptor(text, payload.media) : null;
    if (!descriptor) return setUrl(null);
    let alive = true;
    let made: string | null = null;
    void decryptImage(descriptor)
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
