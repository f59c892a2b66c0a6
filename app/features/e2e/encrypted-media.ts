import { MAX_IMAGE_PIXELS } from "../../../worker/contract/media";
import { fromBase64, toBase64 } from "./device-keys";

/**
 * Encrypted images of private messages (README Decisions "Everything private is encrypted"; SECURITY.md "End-to-end
 * encrypted private messages"). The browser re-draws the picture (which drops EXIF/GPS and anything appended, as the
 * server's codec does for other uploads — the server cannot, it never sees the pixels), encrypts the bytes with a
 * fresh AES-256-GCM key of its own and uploads only the ciphertext (type `encrypted`, R2 kind `e2e`). The file's key,
 * IV and address travel in a small descriptor that is itself sent as the text of an ordinary encrypted message
 * (chat-crypto.ts `encryptText`): its message key is wrapped for every listed device of both members and signed by
 * the sending device, so the file key reaches exactly the devices the text would.
 */
const DESCRIPTOR = "velvet-e2e-image-v1";
/** Only these are ever shown (blob URLs of any other type could be opened as a page of our origin). */
const IMAGE_TYPES = ["image/jpeg", "image/png"] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
/** Long side of what is encrypted: enough for a phone screen, and well under the upload cap. */
const MAX_SIDE = 2048;

export type ImageDescriptor = { v: typeof DESCRIPTOR; src: string; key: string; iv: string; type: ImageType; width: number; height: number };

/** The picture re-encoded from its pixels (no metadata), at most MAX_SIDE px and MAX_IMAGE_PIXELS. Null if not an image. */
export async function cleanImage(file: Blob): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: ImageType; width: number; height: number } | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height), Math.sqrt(MAX_IMAGE_PIXELS / (bitmap.width * bitmap.height)));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.floor(bitmap.width * scale));
  canvas.height = Math.max(1, Math.floor(bitmap.height * scale));
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const type: ImageType = file.type === "image/png" ? "image/png" : "image/jpeg";
  const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, type, 0.9));
  if (!blob) return null;
  return { bytes: new Uint8Array(await blob.arrayBuffer()), type, width: canvas.width, height: canvas.height };
}

/** Encrypts the file's bytes with a fresh key; the key and IV go into the descriptor once the upload has an address. */
export async function encryptFile(bytes: Uint8Array<ArrayBuffer>) {
  const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, bytes));
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", aes));
  return { ciphertext, describe: (src: string, image: { type: ImageType; width: number; height: number }) => JSON.stringify({ v: DESCRIPTOR, src, key: toBase64(raw), iv: toBase64(iv), ...image } satisfies ImageDescriptor) };
}

/**
 * The descriptor inside a verified, decrypted message — only when the message's `media` is the same address (the
 * server could otherwise point a signed message at another file; the file's own key would not open it anyway).
 */
export function readDescriptor(text: string, media: string): ImageDescriptor | null {
  try {
    const d = JSON.parse(text) as Partial<ImageDescriptor>;
    if (d.v !== DESCRIPTOR || d.src !== media || typeof d.key !== "string" || typeof d.iv !== "string") return null;
    if (!IMAGE_TYPES.includes(d.type as ImageType)) return null;
    return d as ImageDescriptor;
  } catch {
    return null;
  }
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** Loads the ciphertext (session cookie; never cached), decrypts it and hands back a blob URL of a checked image type. */
export async function decryptImage(descriptor: ImageDescriptor): Promise<string | null> {
  const response = await fetch(descriptor.src, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) return null;
  try {
    const aes = await crypto.subtle.importKey("raw", fromBase64(descriptor.key), { name: "AES-GCM" }, false, ["decrypt"]);
    const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(descriptor.iv) }, aes, await response.arrayBuffer()));
    // The bytes must be what the descriptor says (a sender cannot smuggle another type behind an image).
    const ok = descriptor.type === "image/png" ? startsWith(plain, [0x89, 0x50, 0x4e, 0x47]) : startsWith(plain, [0xff, 0xd8, 0xff]);
    return ok ? URL.createObjectURL(new Blob([plain], { type: descriptor.type })) : null;
  } catch {
    return null;
  }
}
