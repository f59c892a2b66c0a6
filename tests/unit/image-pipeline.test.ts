import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { storeImage } from "../../worker/features/images/image-pipeline";
import { sniffImage } from "../../worker/features/images/image-sniff";
import { RENDITION_SIDE, blurredRendition } from "../../worker/lib/blur-rendition";

function png(width: number, height: number, fill: (x: number, y: number) => [number, number, number]) {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = fill(x, y);
      pixels.set([r, g, b, 255], (y * width + x) * 4);
    }
  const image = new PhotonImage(pixels, width, height);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}

const base = { projectCode: "SMP", memberNo: "12345678" };

describe("image pipeline", () => {
  it("scales photos to at most 600 px and stores a JPEG under a server key", async () => {
    const stored = await storeImage(env, { ...base, kind: "photo", bytes: png(800, 400, (x) => [100 + (x % 50), 120, 140]) });
    expect(stored).toMatchObject({ width: 600, height: 300, graphic: false });
    expect(stored.key).toMatch(/^SMP\/12345678\/photo\/[A-Za-z0-9]{24}\.jpg$/);
    const object = await env.MEDIA.get(stored.key);
    const bytes = new Uint8Array(await object!.arrayBuffer());
    expect(sniffImage(bytes)).toEqual({ type: "jpeg", width: 600, height: 300 });
  });

  it("stores square avatars at 300x300 and refuses non-square ones", async () => {
    const stored = await storeImage(env, { ...base, kind: "avatar", square: true, bytes: png(500, 500, () => [120, 90, 160]) });
    expect(stored).toMatchObject({ width: 300, height: 300 });
    await expect(storeImage(env, { ...base, kind: "avatar", square: true, bytes: png(500, 300, () => [120, 90, 160]) })).rejects.toMatchObject({ status: 400 });
  });

  it("flags mostly black or white images as graphic (§5)", async () => {
    const dark = await storeImage(env, { ...base, kind: "photo", bytes: png(100, 100, (x) => (x < 45 ? [10, 10, 10] : [120, 120, 120])) });
    expect(dark.graphic).toBe(true);
    const fine = await storeImage(env, { ...base, kind: "photo", bytes: png(100, 100, (x) => (x < 35 ? [10, 10, 10] : [120, 120, 120])) });
    expect(fine.graphic).toBe(false);
  });

  it("refuses text renamed as an image (415) and huge declared dimensions (413)", async () => {
    await expect(storeImage(env, { ...base, kind: "photo", bytes: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>") })).rejects.toMatchObject({ status: 415 });
    const bomb = png(10, 10, () => [1, 2, 3]);
    new DataView(bomb.buffer, bomb.byteOffset).setUint32(16, 100_000);
    new DataView(bomb.buffer, bomb.byteOffset).setUint32(20, 100_000);
    await expect(storeImage(env, { ...base, kind: "photo", bytes: bomb })).rejects.toMatchObject({ status: 413 });
    await expect(storeImage(env, { ...base, kind: "photo", bytes: png(10, 10, () => [1, 2, 3]).slice(0, 40) })).rejects.toMatchObject({ status: 415 });
  });

  it("stores a blurred rendition beside the original when asked, under a key of its own random id", async () => {
    const none = await storeImage(env, { ...base, kind: "photo", bytes: png(100, 80, () => [120, 90, 160]) });
    expect(none.rendition).toBeNull();
    const stored = await storeImage(env, { ...base, kind: "photo", rendition: true, bytes: png(800, 400, (x, y) => ((x >> 3) + (y >> 3)) % 2 ? [60, 70, 160] : [200, 170, 90]) });
    expect(stored.rendition!.key).toMatch(/^SMP\/12345678\/blur\/[A-Za-z0-9]{24}\.jpg$/);
    expect(stored.rendition!.url).toBe(`/media/${stored.rendition!.key}`);
    expect(stored.rendition!.key.split("/").at(-1)).not.toBe(stored.key.split("/").at(-1));
    const bytes = new Uint8Array(await (await env.MEDIA.get(stored.rendition!.key))!.arrayBuffer());
    expect(sniffImage(bytes)).toEqual({ type: "jpeg", width: RENDITION_SIDE, height: RENDITION_SIDE / 2 });
  });
});

describe("blurredRendition", () => {
  const checkerboard = (width: number, height: number, cell: number) => {
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(((x / cell) ^ (y / cell)) & 1 ? [250, 250, 250, 255] : [0, 0, 0, 255], (y * width + x) * 4);
    return { data, width, height };
  };

  it("keeps the aspect ratio at RENDITION_SIDE on the long side, and at least a pixel each way", () => {
    expect(blurredRendition(checkerboard(600, 450, 4))).toMatchObject({ width: 48, height: 36 });
    expect(blurredRendition(checkerboard(300, 300, 4))).toMatchObject({ width: 48, height: 48 });
    expect(blurredRendition(checkerboard(600, 3, 1))).toMatchObject({ width: 48, height: 1 });
  });

  it("leaves no detail: a black and white checkerboard becomes an even grey", () => {
    const { data } = blurredRendition(checkerboard(300, 300, 6));
    for (let i = 0; i < data.length; i += 4) expect(Math.abs(data[i]! - 125), `pixel ${i / 4}`).toBeLessThan(12);
  });
});
