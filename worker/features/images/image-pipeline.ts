import type { MediaKind } from "../../contract/media";
import { MAX_IMAGE_PIXELS, mediaUrl } from "../../contract/media";
import { AppError } from "../../lib/app-error";
import { contentHash, randomString } from "../../lib/crypto";
import { blurredRendition } from "../../lib/blur-rendition";
import { cropPixels, decodeImage, encodeJpeg, encodePng, resizePixels, type Pixels } from "./codecs";
import { jpegReachesEnd, sniffImage } from "./image-sniff";

/** Upload body cap (413 above it). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Declared pixel cap: refuses decompression bombs, and anything too big to decode within an isolate, before decoding. */
export const MAX_DECLARED_PIXELS = MAX_IMAGE_PIXELS;
/** §5 sizes. */
export const AVATAR_SIZE = 300;
export const PHOTO_MAX_SIDE = 600;

/** `rendition`: the blurred rendition's own key and URL, when the input asked for one. */
export type StoredImage = { key: string; url: string; width: number; height: number; graphic: boolean; contentHash: string; rendition: { key: string; url: string } | null };

/** JPEG quality of a rendition: it holds colour patches only, and a low quality keeps it a few hundred bytes. */
const RENDITION_QUALITY = 60;

export type ImageInput = {
  projectCode: string;
  memberNo: string;
  kind: MediaKind;
  bytes: ArrayBuffer | Uint8Array;
  /** Avatars: must be square (±2%), stored as 300x300 (§5). */
  square?: boolean;
  /** Longest side after scaling; default 600 (§5), ignored for square avatars. */
  maxSide?: number;
  /** Optional transform of the final RGBA pixels before encoding (album scrambling). */
  transformPixels?: (pixels: Uint8Array, width: number, height: number) => Uint8Array;
  /**
   * Also store a blurred rendition (avatars and photos): what visitors, safe-mode viewers and viewers of a `blur`
   * member or photo get instead of the original. Its key has its own random id, so neither URL tells the other.
   */
  rendition?: boolean;
};

/**
 * §5: over 40% of pixels near-black or near-white (every channel ≤ 25, or every channel ≥ 230) is graphic.
 */
export function isGraphic(pixels: Uint8Array): boolean {
  let extreme = 0;
  const total = pixels.length / 4;
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i]!, g = pixels[i + 1]!, b = pixels[i + 2]!;
    if ((r <= 25 && g <= 25 && b <= 25) || (r >= 230 && g >= 230 && b >= 230)) extreme++;
  }
  return extreme / total > 0.4;
}

/**
 * The one media pipeline: checks type by content (415), size (413), declared dimensions (413),
 * decodes with maintained WASM codecs (./codecs), crops/scales, runs the graphic check, re-encodes as JPEG
 * (which drops EXIF/GPS and anything appended to the file), and stores it in R2 under a server key.
 */
export async function storeImage(env: Env, input: ImageInput): Promise<StoredImage> {
  const bytes = input.bytes instanceof Uint8Array ? input.bytes : new Uint8Array(input.bytes);
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError("tooLarge");
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new AppError("unsupportedMedia");
  if (sniffed.width < 1 || sniffed.height < 1 || sniffed.width * sniffed.height > MAX_DECLARED_PIXELS) throw new AppError("tooLarge");
  if (input.square && Math.abs(sniffed.width - sniffed.height) > Math.max(2, 0.02 * Math.max(sniffed.width, sniffed.height))) {
    throw new AppError("badRequest", { message: "Avatar must be square" });
  }

  if (sniffed.type === "jpeg" && !jpegReachesEnd(bytes)) throw new AppError("unsupportedMedia", { message: "The image could not be read" });
  let image: Pixels;
  try {
    image = await decodeImage(bytes, sniffed.type);
  } catch {
    throw new AppError("unsupportedMedia", { message: "The image could not be read" });
  }
  let { width, height } = image;
  if (input.square) {
    const side = Math.min(width, height);
    if (width !== height) image = cropPixels(image, Math.floor((width - side) / 2), Math.floor((height - side) / 2), side, side);
    if (side !== AVATAR_SIZE) image = await resizePixels(image, AVATAR_SIZE, AVATAR_SIZE);
  } else {
    const maxSide = input.maxSide ?? PHOTO_MAX_SIDE;
    const scale = Math.min(1, maxSide / Math.max(width, height));
    if (scale < 1) image = await resizePixels(image, Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  }
  ({ width, height } = image);
  const graphic = isGraphic(image.data);
  // Scrambled album images must survive exactly, so they are stored lossless (PNG); everything else JPEG.
  const lossless = Boolean(input.transformPixels);
  const encoded = input.transformPixels ? await encodePng({ data: input.transformPixels(image.data, width, height), width, height }) : await encodeJpeg(image, 85);
  const key = `${input.projectCode}/${input.memberNo}/${input.kind}/${randomString(24)}.${lossless ? "png" : "jpg"}`;
  const rendition = input.rendition ? { key: `${input.projectCode}/${input.memberNo}/blur/${randomString(24)}.jpg`, bytes: await encodeJpeg(blurredRendition(image), RENDITION_QUALITY) } : null;
  await Promise.all([
    env.MEDIA.put(key, encoded, { httpMetadata: { contentType: lossless ? "image/png" : "image/jpeg" } }),
    rendition && env.MEDIA.put(rendition.key, rendition.bytes, { httpMetadata: { contentType: "image/jpeg" } }),
  ]);
  return { key, url: mediaUrl(key), width, height, graphic, contentHash: await contentHash(encoded as Uint8Array<ArrayBuffer>), rendition: rendition && { key: rendition.key, url: mediaUrl(rendition.key) } };
}
