import { useMemo } from "react";
import type { ChatMessage } from "../../../worker/contract/chat";
import { seedFromHex } from "../../../worker/contract/scramble";
import { AlbumImage } from "../albums/album-image";

type ImagePayload = Extract<NonNullable<ChatMessage["payload"]>, { type: "img" | "encodedImage" }>;

/**
 * A chat image: `img` as is; `encodedImage` unscrambled in the browser with the key its message carries (§4), on a
 * canvas with the same shuffle albums use (worker/contract/scramble.ts). An encoded image without a usable key is left
 * as the file is (noise) rather than guessed.
 */
export function ChatImage({ payload, alt, className }: { payload: ImagePayload; alt: string; className: string }) {
  const key = payload.type === "encodedImage" ? payload.key : undefined;
  const seed = useMemo(() => {
    if (!key) return null;
    try {
      return seedFromHex(key);
    } catch {
      console.warn("chat image key unusable");
      return null;
    }
  }, [key]);
  if (payload.type === "img" || !seed) return <img src={payload.src} alt={alt} className={className} loading="lazy" />;
  return (
    <span className={`${className} chat-image-encoded`}>
      <AlbumImage src={payload.src} alt={alt} seed={seed} />
    </span>
  );
}
