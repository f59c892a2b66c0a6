import decodeJpegWasm, { init as initJpegDecoder } from "@jsquash/jpeg/decode";
import encodeJpegWasm, { init as initJpegEncoder } from "@jsquash/jpeg/encode";
import jpegDecoderModule from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?module";
import jpegEncoderModule from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import decodePngWasm, { init as initPng } from "@jsquash/png/decode";
import encodePngWasm from "@jsquash/png/encode";
import pngModule from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import initResize, { resize as resizeWasm } from "@jsquash/resize/lib/resize/pkg/squoosh_resize.js";
import resizeModule from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";

/**
 * The image codecs of the worker: MozJPEG (decode, encode), the Rust `png` crate (decode, encode) and the Rust
 * `resize` crate (Lanczos3), as the Squoosh WASM builds repackaged by jSquash. They replace @cf-wasm/photon, whose
 * single WASM (every filter of the library) was 600 KB of the deployed worker's gzip; these four are ~225 KB.
 * Each module is compiled into the worker (no fetch at run time) and instantiated on first use.
 */

/** Straight (not premultiplied) RGBA, 8 bits a channel, rows top to bottom. */
export type Pixels = { data: Uint8Array; width: number; height: number };

// The PNG glue builds browser ImageData objects; workerd has none (a plain holder of the same fields will do).
const scope = globalThis as { ImageData?: unknown };
scope.ImageData ??= class ImageData {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
};

// MozJPEG's init takes the compiled module first (its typings only show the options).
const initMozJpeg = (init: unknown, module: WebAssembly.Module) => (init as (module: WebAssembly.Module) => Promise<void>)(module);

let ready: Promise<unknown> | null = null;
function init() {
  ready ??= Promise.all([initMozJpeg(initJpegDecoder, jpegDecoderModule), initMozJpeg(initJpegEncoder, jpegEncoderModule), initPng(pngModule), initResize(resizeModule)]).catch(
    (error: unknown) => {
      ready = null; // a failed instantiation is tried again on the next image
      throw error;
    },
  );
  return ready;
}

const view = (image: { data: Uint8ClampedArray | Uint8Array; width: number; height: number }): Pixels => ({
  data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength),
  width: image.width,
  height: image.height,
});
/** The codecs take browser-style ImageData: they read these three fields. */
const imageData = (pixels: Pixels) =>
  ({ data: new Uint8ClampedArray(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), width: pixels.width, height: pixels.height }) as unknown as ImageData;

/** Decodes a PNG (any colour type and depth) or a JPEG (baseline or progressive) to RGBA. EXIF is not read. */
export async function decodeImage(bytes: Uint8Array, type: "png" | "jpeg"): Promise<Pixels> {
  await init();
  const input = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  return view(type === "png" ? await decodePngWasm(input) : await decodeJpegWasm(input, { preserveOrientation: false }));
}

/** A rectangle of the image (copied). */
export function cropPixels(pixels: Pixels, x: number, y: number, width: number, height: number): Pixels {
  const out = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * pixels.width + x) * 4;
    out.set(pixels.data.subarray(from, from + width * 4), row * width * 4);
  }
  return { data: out, width, height };
}

const LANCZOS3 = 3;
/** Lanczos3 resampling (alpha premultiplied while filtering, sRGB values as they are). */
export async function resizePixels(pixels: Pixels, width: number, height: number): Promise<Pixels> {
  await init();
  const out = resizeWasm(pixels.data, pixels.width, pixels.height, width, height, LANCZOS3, true, false);
  return { data: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), width, height };
}

/** JPEG at the given quality (0–100); only the pixels are written, so no metadata survives. */
export async function encodeJpeg(pixels: Pixels, quality: number): Promise<Uint8Array> {
  await init();
  return new Uint8Array(await encodeJpegWasm(imageData(pixels), { quality }));
}

/** Lossless PNG, 8-bit RGBA. */
export async function encodePng(pixels: Pixels): Promise<Uint8Array> {
  await init();
  return new Uint8Array(await encodePngWasm(imageData(pixels)));
}
