/**
 * The blurred rendition of an image (README Decisions "Visitors get a blurred rendition, never the original"): the
 * picture averaged down to RENDITION_DETAIL pixels on its long side, then smoothly enlarged to RENDITION_SIDE. What
 * survives is a few colour patches: no face, text or tattoo can be made out, however the file is enlarged, because
 * the detail is gone from the file itself (a CSS blur only hides what the browser still has).
 * Pure RGBA in, RGBA out (8 bits a channel, rows top to bottom), so the worker's pipeline and the demo seed share it.
 */

/** Pixels left on the long side after averaging: all the detail the rendition keeps. */
export const RENDITION_DETAIL = 10;
/** Long side of the stored rendition. */
export const RENDITION_SIDE = 48;

export type RgbaImage = { data: Uint8Array; width: number; height: number };

/** Fits `width`x`height` into `side` on the long side (at least 1 px each way). */
function fitWithin(width: number, height: number, side: number) {
  const scale = side / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Each target pixel is the mean of the source pixels its box covers (every source pixel counts once). */
function areaAverage(image: RgbaImage, width: number, height: number): RgbaImage {
  const out = new Uint8Array(width * height * 4);
  for (let ty = 0; ty < height; ty++) {
    const y0 = Math.floor((ty * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * image.height) / height));
    for (let tx = 0; tx < width; tx++) {
      const x0 = Math.floor((tx * image.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * image.width) / width));
      let r = 0, g = 0, b = 0, a = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = (y * image.width + x) * 4;
          r += image.data[i]!;
          g += image.data[i + 1]!;
          b += image.data[i + 2]!;
          a += image.data[i + 3]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      out.set([Math.round(r / n), Math.round(g / n), Math.round(b / n), Math.round(a / n)], (ty * width + tx) * 4);
    }
  }
  return { data: out, width, height };
}

/** Bilinear enlargement (pixel centres aligned, edges clamped): smooth patches, no blocks to read shapes from. */
function bilinear(image: RgbaImage, width: number, height: number): RgbaImage {
  const out = new Uint8Array(width * height * 4);
  const at = (x: number, y: number, c: number) => image.data[(y * image.width + x) * 4 + c]!;
  for (let ty = 0; ty < height; ty++) {
    const sy = Math.min(image.height - 1, Math.max(0, ((ty + 0.5) * image.height) / height - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const fy = sy - y0;
    for (let tx = 0; tx < width; tx++) {
      const sx = Math.min(image.width - 1, Math.max(0, ((tx + 0.5) * image.width) / width - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const fx = sx - x0;
      for (let c = 0; c < 4; c++) {
        const top = at(x0, y0, c) * (1 - fx) + at(x1, y0, c) * fx;
        const bottom = at(x0, y1, c) * (1 - fx) + at(x1, y1, c) * fx;
        out[(ty * width + tx) * 4 + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, width, height };
}

/** The rendition's pixels: RENDITION_SIDE on the long side, the aspect ratio kept. */
export function blurredRendition(image: RgbaImage): RgbaImage {
  const small = fitWithin(image.width, image.height, RENDITION_DETAIL);
  const size = fitWithin(image.width, image.height, RENDITION_SIDE);
  return bilinear(areaAverage(image, small.width, small.height), size.width, size.height);
}
