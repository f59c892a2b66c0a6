/**
 * Reads an image's real type and declared size from its header bytes (not its name), before any decoding,
 * so renamed files are refused (415) and decompression bombs are refused before they allocate (413).
 */
export type Sniffed = { type: "png" | "jpeg"; width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): Sniffed | null {
  if (bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    // IHDR is the first chunk: length(4) "IHDR"(4) width(4) height(4).
    if (String.fromCharCode(...bytes.slice(12, 16)) !== "IHDR") return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { type: "png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    let offset = 2;
    while (offset + 9 < bytes.length) {
      if (bytes[offset] !== 0xff) return null;
      const marker = bytes[offset + 1]!;
      if (marker === 0xff) {
        offset += 1;
        continue;
      }
      const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = (bytes[offset + 5]! << 8) | bytes[offset + 6]!;
        const width = (bytes[offset + 7]! << 8) | bytes[offset + 8]!;
        return { type: "jpeg", width, height };
      }
      if (length < 2) return null;
      offset += 2 + length;
    }
  }
  return null;
}

/**
 * Whether a JPEG's scan data reaches its end marker (EOI). libjpeg decodes a cut-off file without an error (the
 * missing rows come out grey), so a truncated upload is refused here. Segments before the first scan are skipped
 * by their lengths (an EXIF thumbnail has an EOI of its own); in scan data 0xFF is always followed by 0x00 or a
 * marker, so FF D9 there is the image's EOI. Bytes after it (appended data) are not the image's concern.
 */
export function jpegReachesEnd(bytes: Uint8Array): boolean {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2) return false;
    offset += 2 + length;
    if (marker === 0xda) break; // start of scan: entropy-coded data follows its header
  }
  for (let i = offset; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
  return false;
}
