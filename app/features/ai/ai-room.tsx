import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AI_POLL_ATTEMPTS, AI_POLL_MS, isAsciiPrompt } from "../../../worker/contract/ai.constants";
import type { AiImage } from "../../../worker/contract/ai";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { generateImage } from "../../api/ai-api";
import { errorText } from "../../lib/error-text";
import { useRoom } from "../../lib/realtime";
import "./ai.css";

/** §9: a blurred image reveals after 10 taps, like blurred photos. */
const REVEAL_TAPS = 10;

/**
 * §2 AI room: English-only prompt and the gallery of earlier images. A new image shows as pending; the page
 * polls its /output URL every 30 s for about 5 minutes (§9) and also flips it as soon as the member inbox
 * says `aiImageReady`.
 */
export function AiRoom({ projectCode, memberId, initial }: { projectCode: string; memberId: string; initial: AiImage[] }) {
  const { t } = useTranslation("ai");
  const [images, setImages] = useState<AiImage[]>(initial);
  const [prompt, setPrompt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taps, setTaps] = useState<Record<number, number>>({});
  const timers = useRef(new Map<number, number>());

  const markReady = (imageUrl: string) =>
    setImages((list) => list.map((img) => (img.imageUrl === imageUrl && img.status === "pending" ? { ...img, status: "ready" } : img)));

  const pendingNow = useRef<AiImage[]>([]);
  pendingNow.current = images.filter((img) => img.status === "pending");

  useRoom({
    party: "member-inbox",
    room: `${projectCode.toUpperCase()}~${memberId}`,
    onEvent: (event: ServerEvent) => {
      // A (re)connected inbox may have missed a push while it was down: look at what is still pending once.
      if (event.type === "welcome") {
        for (const image of pendingNow.current) {
          void fetch(image.imageUrl, { cache: "no-store" })
            .then((response) => response.status === 200 && markReady(image.imageUrl))
            .catch(() => undefined);
        }
      }
      if (event.type === "notification" && event.item.type === "aiImageReady" && typeof event.item.params.imageUrl === "string") {
        markReady(event.item.params.imageUrl);
      }
    },
  });

  function poll(image: AiImage, attempt = 1) {
    const id = window.setTimeout(async () => {
      const response = await fetch(image.imageUrl, { method: "GET", cache: "no-store" }).catch(() => null);
      if (response?.status === 200) markReady(image.imageUrl);
      else if (attempt < AI_POLL_ATTEMPTS) poll(image, attempt + 1);
      else setImages((list) => list.map((img) => (img.idImage === image.idImage && img.status === "pending" ? { ...img, status: "failed" } : img)));
    }, AI_POLL_MS);
    timers.current.set(image.idImage, id);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: starts polling the first render's pending images once; later ones start where they are added
  useEffect(() => {
    for (const image of initial) if (image.status === "pending") poll(image);
    const pending = timers.current;
    return () => {
      for (const id of pending.values()) window.clearTimeout(id);
    };
  }, []);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const text = prompt.trim();
    if (!text) return;
    // §5/§8: ASCII only, refused before it leaves the browser (the server refuses it too).
    if (!isAsciiPrompt(text)) {
      setError(t("englishOnly"));
      return;
    }
    setBusy(true);
    const body = await generateImage(text);
    setBusy(false);
    if (!("info" in body)) {
      setError(errorText(t, body));
      return;
    }
    setError(null);
    setPrompt("");
    setImages((list) => [body.info, ...list]);
    poll(body.info);
  }

  return (
    <main className="page ai-room">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <form className="form card" onSubmit={submit}>
        <label className="field">
          <span>{t("prompt")}</span>
          <textarea
            rows={3}
            value={prompt}
            maxLength={500}
            placeholder={t("placeholder")}
            onChange={(e) => setPrompt(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "ai-error" : undefined}
          />
        </label>
        {error && (
          <p id="ai-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy || !prompt.trim()}>
          {busy ? t("creating") : t("submit")}
        </button>
      </form>

      <section aria-labelledby="ai-gallery">
        <h2 id="ai-gallery">{t("gallery")}</h2>
        {images.length === 0 ? (
          <p className="empty-state">{t("empty")}</p>
        ) : (
          <ul className="ai-gallery">
            {images.map((image) => {
              const left = REVEAL_TAPS - (taps[image.idImage] ?? 0);
              const blurred = image.blur && left > 0;
              return (
                <li key={image.idImage} className="ai-tile">
                  {image.status === "ready" ? (
                    <button
                      type="button"
                      className="ai-image-button"
                      onClick={() => blurred && setTaps({ ...taps, [image.idImage]: (taps[image.idImage] ?? 0) + 1 })}
                      aria-label={blurred ? t("reveal", { count: left }) : t("imageAlt", { prompt: image.prompt })}
                    >
                      <img src={image.imageUrl} alt={t("imageAlt", { prompt: image.prompt })} width={512} height={512} className={blurred ? "blurred" : undefined} />
                    </button>
                  ) : (
                    <div className={`ai-placeholder ai-${image.status}`} role="status">
                      {image.status === "pending" ? t("pending") : t("failed")}
                    </div>
                  )}
                  <p className="ai-prompt">{image.prompt}</p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </main>
  );
}
