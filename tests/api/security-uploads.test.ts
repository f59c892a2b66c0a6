import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { sniffImage } from "../../worker/features/images/image-sniff";
import { MAX_UPLOAD_BYTES } from "../../worker/features/images/image-pipeline";
import { MAX_IMAGE_PIXELS } from "../../worker/contract/media";
import { createWorkerApp } from "../../worker/worker-app";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member, type Reply } from "../support/client";
import { mountedRoutes, rowCounts } from "../support/route-matrix";
import { freshWindowIfEnding } from "../support/rate-window";

/**
 * Hostile uploads (SECURITY.md) through every upload door the app mounts: content that contradicts its name,
 * SVG and HTML, polyglots, truncated images, decompression bombs, oversize bodies — all refused cleanly and
 * storing nothing; EXIF/GPS never survives into the stored object.
 */
const doors = mountedRoutes(createWorkerApp())
  .filter((r) => r.method === "POST" && (/\/core\/files\//.test(r.path) || r.path === "/api/v3/storage"))
  .map((r) => r.path);

const enc = new TextEncoder();
const bytesOf = (...parts: (Uint8Array | string | number[])[]) => {
  const chunks = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p instanceof Uint8Array ? p : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

function pixels(width: number, height: number) {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([90 + (i % 70), 110 + (i % 50), 140, 255], i * 4);
  return data;
}
function png(width = 64, height = 64) {
  const image = new PhotonImage(pixels(width, height), width, height);
  const out = image.get_bytes();
  image.free();
  return out;
}
function jpeg(width = 64, height = 64) {
  const image = new PhotonImage(pixels(width, height), width, height);
  const out = image.get_bytes_jpeg(90);
  image.free();
  return out;
}

/** An APP1 Exif segment (little-endian TIFF) with IFD0 → GPS IFD: N 35°39'31", E 139°44'43", and a camera make. */
function exifGpsSegment() {
  const entries: number[] = [];
  const u16 = (v: number) => [v & 0xff, (v >> 8) & 0xff];
  const u32 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];
  // TIFF header at offset 0: "II", 42, IFD0 at 8.
  const tiff: number[] = [0x49, 0x49, ...u16(42), ...u32(8)];
  // IFD0: 2 entries (Make, GPSInfo pointer), next IFD 0. Size = 2 + 2*12 + 4 = 30 → data from 38.
  const makeText = [...enc.encode("SpyCam\0")];
  const makeOffset = 38;
  const gpsIfdOffset = makeOffset + makeText.length + 1; // keep word alignment
  tiff.push(...u16(2));
  tiff.push(...u16(0x010f), ...u16(2), ...u32(makeText.length), ...u32(makeOffset));
  tiff.push(...u16(0x8825), ...u16(4), ...u32(1), ...u32(gpsIfdOffset));
  tiff.push(...u32(0));
  tiff.push(...makeText, 0);
  // GPS IFD: 4 entries + next 0 → 2 + 48 + 4 = 54; rationals after it.
  const rationals = gpsIfdOffset + 54;
  const rational = (n: number, d: number) => [...u32(n), ...u32(d)];
  tiff.push(...u16(4));
  tiff.push(...u16(0x0001), ...u16(2), ...u32(2), ...[0x4e, 0, 0, 0]); // GPSLatitudeRef "N"
  tiff.push(...u16(0x0002), ...u16(5), ...u32(3), ...u32(rationals)); // GPSLatitude
  tiff.push(...u16(0x0003), ...u16(2), ...u32(2), ...[0x45, 0, 0, 0]); // GPSLongitudeRef "E"
  tiff.push(...u16(0x0004), ...u16(5), ...u32(3), ...u32(rationals + 24)); // GPSLongitude
  tiff.push(...u32(0));
  tiff.push(...rational(35, 1), ...rational(39, 1), ...rational(31, 1));
  tiff.push(...rational(139, 1), ...rational(44, 1), ...rational(43, 1));
  entries.push(...enc.encode("Exif\0\0"), ...tiff);
  const length = entries.length + 2;
  return new Uint8Array([0xff, 0xe1, (length >> 8) & 0xff, length & 0xff, ...entries]);
}
const withExif = (image: Uint8Array) => bytesOf(image.slice(0, 2), exifGpsSegment(), image.slice(2));

const contains = (haystack: Uint8Array, needle: Uint8Array | string) => {
  const n = typeof needle === "string" ? enc.encode(needle) : needle;
  outer: for (let i = 0; i + n.length <= haystack.length; i++) {
    for (let j = 0; j < n.length; j++) if (haystack[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
};
/** JPEG markers in order (stops at SOS): APP1 = 0xe1. */
function jpegMarkers(bytes: Uint8Array) {
  const markers: number[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    markers.push(marker);
    if (marker === 0xda) break;
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return markers;
}

function form(content: Uint8Array | string, filename: string, mime: string, kind = "photo") {
  const data = new FormData();
  data.set("file", new File([content as BlobPart], filename, { type: mime }));
  data.set("type", kind);
  return data;
}
async function upload(door: string, m: Member, body: FormData): Promise<Reply> {
  const path = door.replace(":project", m.projectCode).replace(":memberId", m.memberId);
  if (path.startsWith("/api/")) {
    const response = await fetchWorker(path, { method: "POST", headers: m.headers, body });
    return { status: response.status, body: await response.json(), headers: response.headers };
  }
  return call("POST", path, { as: m, body });
}
async function stored(info: { key: string }) {
  const object = await env.MEDIA.get(info.key);
  expect(object, info.key).not.toBeNull();
  return new Uint8Array(await object!.arrayBuffer());
}

describe("upload doors", () => {
  it("are found in the app (files by project, files, v3 storage)", () => {
    expect(doors).toContain("/private/core/files/:project/:memberId");
    expect(doors.length).toBeGreaterThanOrEqual(2);
  });
});

for (const door of doors) {
  describe(`uploads through ${door}`, () => {
    it("strips EXIF and GPS from a JPEG that carries them", async () => {
      const m = await signUp();
      const original = withExif(jpeg(320, 200));
      // The fixture really carries Exif GPS, and is a JPEG our sniffer and codec accept.
      expect(contains(original, "Exif\0\0")).toBe(true);
      expect(jpegMarkers(original)).toContain(0xe1);
      expect(sniffImage(original)).toMatchObject({ type: "jpeg", width: 320, height: 200 });
      const info = expectOk(await upload(door, m, form(original, "holiday.jpg", "image/jpeg")));
      const saved = await stored(info);
      expect(sniffImage(saved)?.type).toBe("jpeg");
      expect(jpegMarkers(saved)).not.toContain(0xe1);
      expect(contains(saved, "Exif")).toBe(false);
      expect(contains(saved, "SpyCam")).toBe(false);
      expect(info.key).toMatch(new RegExp(`^SMP/${m.memberNo}/photo/[A-Za-z0-9_-]+\\.jpg$`));
    });

    it("decides the type by content: a PNG named .jpg is stored as a re-encoded image, text named .png is refused", async () => {
      const m = await signUp();
      const info = expectOk(await upload(door, m, form(png(80, 60), "../../../etc/passwd.jpg", "image/jpeg")));
      expect(info.key).not.toContain("..");
      expect(info.key).not.toContain("passwd");
      const served = await fetchWorker(info.url);
      expect(served.headers.get("Content-Type")).toMatch(/^image\/(jpeg|png)$/);
      expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
      await served.arrayBuffer();
      const before = await rowCounts();
      expectFailure(await upload(door, m, form("just some text, honestly a png", "photo.png", "image/png")), 415);
      expectFailure(await upload(door, m, form("GIF89a\x01\x00\x01\x00", "anim.gif", "image/gif")), 415);
      expectFailure(await upload(door, m, form(bytesOf([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0], "WEBPVP8 "), "x.webp", "image/webp")), 415);
      expect(await rowCounts()).toEqual(before);
    });

    it("refuses SVG and HTML whatever they are called", async () => {
      const m = await signUp();
      const before = await rowCounts();
      const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>`;
      for (const [content, name, mime] of [
        [svg, "avatar.svg", "image/svg+xml"],
        [svg, "avatar.png", "image/png"],
        ["<!doctype html><script>alert(document.cookie)</script>", "page.jpg", "image/jpeg"],
        ["<html><body onload=alert(1)>", "page.html", "text/html"],
      ] as const) {
        const reply = await upload(door, m, form(content, name, mime));
        expectFailure(reply, 415);
      }
      expect(await rowCounts()).toEqual(before);
    });

    it("never stores a polyglot's payload: script appended to a real image, or an image behind HTML", async () => {
      const m = await signUp();
      const payload = "<script>alert('polyglot')</script>";
      const appended = bytesOf(png(40, 40), payload);
      const info = expectOk(await upload(door, m, form(appended, "x.png", "image/png")));
      const saved = await stored(info);
      expect(contains(saved, "<script>")).toBe(false);
      const jpegAppended = bytesOf(jpeg(40, 40), "PK\x03\x04", payload);
      const second = expectOk(await upload(door, m, form(jpegAppended, "x.jpg", "image/jpeg")));
      expect(contains(await stored(second), "polyglot")).toBe(false);
      const before = await rowCounts();
      expectFailure(await upload(door, m, form(bytesOf(payload, png(40, 40)), "x.png", "image/png")), 415);
      expect(await rowCounts()).toEqual(before);
    });

    it("refuses truncated and corrupt images with a 4xx and stores nothing", async () => {
      const m = await signUp();
      const before = await rowCounts();
      const full = png(120, 120);
      const jpg = jpeg(120, 120);
      for (const broken of [full.slice(0, 30), full.slice(0, full.length >> 1), jpg.slice(0, 4), jpg.slice(0, jpg.length >> 2), bytesOf(full.slice(0, 33), new Uint8Array(200))]) {
        const reply = await upload(door, m, form(broken, "broken.png", "image/png"));
        expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expectFailure(reply, reply.status);
      }
      expect(await rowCounts()).toEqual(before);
    });

    it("refuses decompression bombs before decoding them (413)", async () => {
      const m = await signUp();
      const before = await rowCounts();
      const bombPng = png(16, 16);
      new DataView(bombPng.buffer, bombPng.byteOffset).setUint32(16, 60_000);
      new DataView(bombPng.buffer, bombPng.byteOffset).setUint32(20, 60_000);
      expectFailure(await upload(door, m, form(bombPng, "bomb.png", "image/png")), 413);
      const bombJpeg = jpeg(16, 16);
      const markers = bombJpeg;
      // Rewrite the frame header (SOF0) to claim 65535 x 65535.
      for (let i = 2; i + 9 < markers.length; ) {
        if (markers[i] !== 0xff) break;
        const marker = markers[i + 1]!;
        const length = (markers[i + 2]! << 8) | markers[i + 3]!;
        if (marker >= 0xc0 && marker <= 0xc2) {
          markers.set([0xff, 0xff, 0xff, 0xff], i + 5);
          break;
        }
        i += 2 + length;
      }
      expect(sniffImage(bombJpeg)).toMatchObject({ width: 65535, height: 65535 });
      expectFailure(await upload(door, m, form(bombJpeg, "bomb.jpg", "image/jpeg")), 413);
      const zero = png(16, 16);
      new DataView(zero.buffer, zero.byteOffset).setUint32(16, 0);
      const reply = await upload(door, m, form(zero, "zero.png", "image/png"));
      expect([400, 413, 415]).toContain(reply.status);
      expect(await rowCounts()).toEqual(before);
    });

    it("refuses oversize bodies (413) and missing files (400)", async () => {
      const m = await signUp();
      const before = await rowCounts();
      const big = new Uint8Array(MAX_UPLOAD_BYTES + 1024);
      big.set(png(8, 8));
      expectFailure(await upload(door, m, form(big, "big.png", "image/png")), 413);
      const empty = new FormData();
      empty.set("type", "photo");
      expectFailure(await upload(door, m, empty), 400);
      const asText = new FormData();
      asText.set("file", "not a file");
      expectFailure(await upload(door, m, asText), 400);
      expect(await rowCounts()).toEqual(before);
    });
  });
}

/** A real single-colour PNG of side × side (IDAT deflated row by row: the test never holds the raw pixels). */
async function singleColourPng(side: number) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(enc.encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, side);
  new DataView(header.buffer).setUint32(4, side);
  header.set([8, 6, 0, 0, 0], 8);
  const row = new Uint8Array(1 + side * 4).fill(0x80);
  row[0] = 0;
  const deflate = new CompressionStream("deflate");
  const compressed = new Response(deflate.readable).arrayBuffer();
  const writer = deflate.writable.getWriter();
  for (let y = 0; y < side; y++) await writer.write(row);
  await writer.close();
  return bytesOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", new Uint8Array(await compressed)), chunk("IEND", new Uint8Array()));
}

describe("uploads stay within an isolate's memory", () => {
  const filesDoor = (m: Member) => `/api/v7/private/core/files/${m.memberId}`;
  const post = (m: Member, body: BodyInit, headers: Record<string, string> = {}) =>
    fetchWorker(filesDoor(m), { method: "POST", headers: { ...m.headers, ...headers }, body, duplex: "half" } as RequestInit);

  it("refuses a 120 KB single-colour 6000×6000 PNG (144 MB decoded) by its declared size, before decoding", async () => {
    const m = await signUp();
    const bomb = await singleColourPng(6000);
    expect(bomb.length).toBeLessThan(300_000);
    expect(sniffImage(bomb)).toMatchObject({ width: 6000, height: 6000 });
    const before = await rowCounts();
    const response = await post(m, form(bomb, "flat.png", "image/png"));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ returnCode: "413000" });
    expect(await rowCounts()).toEqual(before);
    // The cap sits where the decoder's measured peak fits an isolate (tests/bench/decoder-memory.mjs).
    expect(MAX_IMAGE_PIXELS).toBeLessThanOrEqual(2048 * 2048 + 100_000);
  });

  it("counts a body without a declared length as it streams, and cuts it off at the cap", async () => {
    const m = await signUp();
    const multipart = new Response(form(png(64, 64), "small.png", "image/png"));
    const type = multipart.headers.get("Content-Type")!;
    const small = new Uint8Array(await multipart.arrayBuffer());
    const streamOf = (parts: Uint8Array[]) =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = parts.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
    const ok = await post(m, streamOf([small.slice(0, 100), small.slice(100)]), { "Content-Type": type });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const megabyte = new Uint8Array(1024 * 1024);
    const endless = await post(m, streamOf(Array.from({ length: Math.ceil(MAX_UPLOAD_BYTES / megabyte.length) + 2 }, () => megabyte)), { "Content-Type": type });
    expect(endless.status).toBe(413);
  });

  it("checks the upload budget before reading a byte of the body", async () => {
    const m = await signUp();
    await freshWindowIfEnding(60);
    let reply: Response | undefined;
    for (let i = 0; i < 45 && reply?.status !== 429; i++) reply = await post(m, form(new Uint8Array([1, 2, 3]), "x.png", "image/png"));
    expect(reply?.status).toBe(429);
    // An endless body: read, it would end in a 413 at the cap; a 429 proves the budget came first.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const refused = await post(m, endless, { "Content-Type": "multipart/form-data; boundary=x" });
    expect(refused.status).toBe(429);
  });
});
