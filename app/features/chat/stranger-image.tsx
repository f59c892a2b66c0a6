import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessage, Payload } from "../../../worker/contract/chat";
import { useToast } from "../../components/toast";
import { revealRoomImage } from "../../api/chat-api";
import { errorText } from "../../lib/error-text";
import { ChatImage } from "./encoded-image";

type ImagePayload = Extract<Payload, { type: "img" | "encodedImage" }>;

/** The rendition is a few dozen pixels wide: drawn at a chat image's size, so the picture and its button have room. */
const BLURRED_SIZE = { width: 240, maxWidth: "100%", height: "auto" } as const;
const MISSING_SIZE = { width: 240, maxWidth: "100%", height: 160 } as const;
/** The blur's soft edge stays inside the picture's frame rather than glowing over the name above it. */
const WRAP_STYLE = { overflow: "hidden", borderRadius: 10, maxWidth: "100%" } as const;

/**
 * A shared-room image whose author the reader's stranger-media setting covers (README Decisions "Stranger media stays
 * blurred"): the server sent only the blurred rendition, so that is what shows, with a "Show" button that asks for this
 * one original. Nothing is remembered: the next page load is blurred again.
 */
export function StrangerImage({ message, className }: { message: Pick<ChatMessage, "idChatroomMessage" | "payload" | "nickname" | "memberNo">; className: string }) {
  const { t } = useTranslation("room-blur");
  const toast = useToast();
  const [original, setOriginal] = useState<ImagePayload | null>(null);
  const [busy, setBusy] = useState(false);
  const name = message.nickname || message.memberNo;
  const alt = t("chat:imageAlt", { name });
  if (original) return <ChatImage payload={original} alt={alt} className={className} />;
  const src = message.payload?.type === "img" ? message.payload.src : "";

  async function show() {
    setBusy(true);
    const body = await revealRoomImage(message.idChatroomMessage);
    setBusy(false);
    const payload = "info" in body ? body.info.payload : null;
    if (payload && (payload.type === "img" || payload.type === "encodedImage")) setOriginal(payload);
    else toast("info" in body ? t("failed") : errorText(t, body), "error");
  }

  return (
    <span className="chat-image-wrap stranger-image" style={WRAP_STYLE} data-stranger-blur="true">
      {src ? <img src={src} alt={t("blurredAlt", { name })} className={`${className} blurred`} style={BLURRED_SIZE} loading="lazy" /> : <span className={`${className} photo-missing`} style={MISSING_SIZE} role="img" aria-label={t("blurredAlt", { name })} />}
      <button type="button" className="button chat-image-accept" onClick={() => void show()} disabled={busy} aria-label={t("showOf", { name })}>
        {t("show")}
      </button>
    </span>
  );
}
