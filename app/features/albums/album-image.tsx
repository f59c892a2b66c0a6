import { useEffect, useRef, useState } from "react";
import { unscramblePixels } from "../../../worker/contract/scramble";

/**
 * §4: a keyed album's photo is stored scrambled; with the seed (from the key, or given to owner and
 * grantees) the browser restores it on a canvas. Without a seed the scrambled image is all there is.
 */
export function AlbumImage({ src, alt, seed }: { src: string; alt: string; seed: Uint8Array | null }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!seed) return;
    let cancelled = false;
    const image = new Image();
    image.onload = () => {
      const target = canvas.current;
      if (cancelled || !target) return;
      const { naturalWidth: w, naturalHeight: h } = image;
      target.width = w;
      target.height = h;
      const context = target.getContext("2d", { willReadFrequently: true });
      if (!context) return;
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, w, h);
      data.data.set(unscramblePixels(data.data, w, h, seed));
      context.putImageData(data, 0, 0);
      setReady(true);
    };
    image.onerror = () => console.warn("album image failed to load", src);
    image.src = src;
    return () => {
      cancelled = true;
    };
  }, [src, seed]);

  if (!seed) return <img src={src} alt={alt} loading="lazy" />;
  return <canvas ref={canvas} role="img" aria-label={alt} aria-busy={!ready} data-unscrambled={ready ? "true" : "false"} />;
}
