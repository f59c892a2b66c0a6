import { describe, expect, it } from "vitest";
import { newScrambleSeed } from "../../worker/features/albums/album-seal";
import { pixelPermutation, scramblePixels, seedFromHex, seedToHex, unscramblePixels } from "../../worker/contract/scramble";

/** A fixed seed per label (albums get random seeds; the shuffle itself is deterministic per seed). */
const scrambleSeed = async (label: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(label)));

function image(width: number, height: number) {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) pixels.set([(i * 7) % 256, (i * 13) % 256, (i * 31) % 256, 255], i * 4);
  return pixels;
}

const equalPixels = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe("album pixel scramble (§4, §9)", () => {
  it("round-trips exactly with the right seed, pixel for pixel", async () => {
    for (const [w, h] of [[1, 1], [7, 5], [64, 48], [600, 400]] as const) {
      const img = image(w, h);
      const seed = await scrambleSeed("open sesame");
      const scrambled = scramblePixels(img, w, h, seed);
      if (w * h > 1) expect(equalPixels(scrambled, img)).toBe(false);
      expect(equalPixels(unscramblePixels(scrambled, w, h, seed), img)).toBe(true);
    }
  });

  it("does not restore the image with a wrong seed", async () => {
    const img = image(64, 48);
    const scrambled = scramblePixels(img, 64, 48, await scrambleSeed("open sesame"));
    const wrong = unscramblePixels(scrambled, 64, 48, await scrambleSeed("open sesame!"));
    expect(equalPixels(wrong, img)).toBe(false);
    // Most pixels stay displaced, not just a few.
    let same = 0;
    for (let i = 0; i < img.length; i += 4) if (wrong[i] === img[i] && wrong[i + 1] === img[i + 1] && wrong[i + 2] === img[i + 2]) same++;
    expect(same / (img.length / 4)).toBeLessThan(0.1);
  });

  it("gives every album a fresh random seed", () => {
    const seeds = new Set(Array.from({ length: 50 }, () => seedToHex(newScrambleSeed())));
    expect(seeds.size).toBe(50);
    for (const hex of seeds) expect(hex).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is deterministic per seed and only permutes pixels", async () => {
    const a = await scrambleSeed("k1");
    expect(seedToHex(a)).toBe(seedToHex(await scrambleSeed("k1")));
    expect(seedToHex(a)).not.toBe(seedToHex(await scrambleSeed("k2")));
    expect(seedFromHex(seedToHex(a))).toEqual(a);
    const perm = pixelPermutation(1000, a);
    expect([...perm].sort((x, y) => x - y)).toEqual([...Array(1000).keys()]);
    expect([...pixelPermutation(1000, a)]).toEqual([...perm]);
    const img = image(10, 10);
    const sorted = (p: Uint8Array) => [...Array(p.length / 4).keys()].map((i) => p.slice(i * 4, i * 4 + 4).join(",")).sort();
    expect(sorted(scramblePixels(img, 10, 10, a))).toEqual(sorted(img));
  });
});
