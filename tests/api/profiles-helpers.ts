import { PhotonImage } from "@cf-wasm/photon/workerd";
import { call, expectOk, type Member } from "../support/client";

/** Real image bytes from raw pixels (photon), so uploads go through the real decoder. */
export function imageBytes(width: number, height: number, fill: (x: number, y: number) => [number, number, number], format: "png" | "jpeg" = "png") {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = fill(x, y);
      pixels.set([r, g, b, 255], (y * width + x) * 4);
    }
  const image = new PhotonImage(pixels, width, height);
  const bytes = format === "png" ? image.get_bytes() : image.get_bytes_jpeg(90);
  image.free();
  return bytes;
}

export const midTone = (x: number, y: number): [number, number, number] => [90 + ((x * 3) % 80), 80 + ((y * 5) % 60), 140];

/** Inserts an EXIF APP1 segment with a GPS IFD (GPSLatitudeRef N, GPSLatitude 25/1) right after the JPEG SOI. */
export function withExifGps(jpeg: Uint8Array) {
  const tiff: number[] = [0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8];
  // IFD0: one entry, GPSInfo (0x8825) LONG → offset 26
  tiff.push(0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0);
  // GPS IFD at 26: two entries; GPSLatitudeRef "N", GPSLatitude RATIONAL x3 at offset 56
  tiff.push(0, 2, 0, 1, 0, 2, 0, 0, 0, 2, 0x4e, 0, 0, 0, 0, 2, 0, 5, 0, 0, 0, 3, 0, 0, 0, 56, 0, 0, 0, 0);
  tiff.push(0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 30, 0, 0, 0, 1);
  const payload = [...new TextEncoder().encode("Exif\0\0"), ...tiff];
  const length = payload.length + 2;
  const segment = [0xff, 0xe1, length >> 8, length & 0xff, ...payload];
  return new Uint8Array([...jpeg.slice(0, 2), ...segment, ...jpeg.slice(2)]);
}

export function form(bytes: Uint8Array | string, type?: "avatar" | "photo", name = "upload.png", field = "file") {
  const data = new FormData();
  data.set(field, new File([bytes as BlobPart], name, { type: name.endsWith(".txt") ? "text/plain" : "image/png" }));
  if (type) data.set("type", type);
  return data;
}

/** Uploads a qualified 300x300 avatar so the member appears in discovery lists. */
export async function giveAvatar(member: Member, fill = midTone) {
  return expectOk(await call("POST", `/private/core/files/${member.projectCode}/${member.memberId}`, { as: member, body: form(imageBytes(320, 320, fill), "avatar") }));
}

export function contains(haystack: Uint8Array, needle: string) {
  const n = new TextEncoder().encode(needle);
  outer: for (let i = 0; i + n.length <= haystack.length; i++) {
    for (let j = 0; j < n.length; j++) if (haystack[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}
